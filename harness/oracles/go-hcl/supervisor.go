package main

// The supervisor keeps the oracle answering when the Go runtime itself gives
// up: a stack overflow (hclsyntax recurses per nesting level and Go aborts
// past 1 GB of stack) or running out of memory kills a process outright,
// beyond the reach of recover. The supervisor forwards each request to a
// worker child process (this same binary with -worker), and when the worker
// dies or exceeds the time limit it reports a crash for that request and
// starts a fresh worker for the next one.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// stderrHeadBytes is how much of a worker's stderr, per request, is kept to
// explain its death.
const stderrHeadBytes = 64 << 10

// Command-line flags shared by the supervisor and its workers.
const (
	workerFlag   = "-worker"    // serve requests in-process
	maxStackFlag = "-max-stack" // a worker's stack limit
)

// supervise answers every request line read from r on w through worker
// processes started with workerArgs. A zero timeout means no time limit.
func supervise(r io.Reader, w io.Writer, timeout time.Duration, workerArgs []string) error {
	var wk *worker
	defer func() {
		if wk != nil {
			wk.stop()
		}
	}()

	return answerLines(r, w, func(line []byte) ([]byte, error) {
		if wk == nil {
			started, err := startWorker(workerArgs)
			if err != nil {
				return nil, err
			}
			wk = started
		}
		answer, failure := wk.roundTrip(line, timeout)
		if failure == "" {
			return answer, nil
		}
		wk.stop()
		wk = nil
		return (&response{ID: requestID(line), Crash: failure}).encode(), nil
	})
}

// worker is one child process serving requests in lockstep.
type worker struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan []byte // closed when the worker's stdout ends
	stderr  *headBuffer
	copied  sync.WaitGroup // stderr forwarding
}

func startWorker(args []string) (*worker, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot locate own executable: %v", err)
	}
	cmd := exec.Command(exe, append([]string{workerFlag}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start worker: %v", err)
	}

	wk := &worker{cmd: cmd, stdin: stdin, answers: make(chan []byte), stderr: &headBuffer{limit: stderrHeadBytes}}
	go func() {
		defer close(wk.answers)
		rd := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := rd.ReadBytes('\n')
			if err != nil {
				return // a partial last line means the worker died mid-answer
			}
			wk.answers <- bytes.TrimSuffix(line, []byte("\n"))
		}
	}()
	wk.copied.Add(1)
	go func() {
		defer wk.copied.Done()
		// The worker's diagnostics stay visible on our stderr.
		_, _ = io.Copy(io.MultiWriter(os.Stderr, wk.stderr), stderr)
	}()
	return wk, nil
}

// roundTrip sends one request and waits for its answer. A non-empty failure
// says why no answer came; the worker is then unusable.
func (wk *worker) roundTrip(line []byte, timeout time.Duration) (answer []byte, failure string) {
	msg := make([]byte, 0, len(line)+1)
	msg = append(append(msg, line...), '\n')
	wk.stderr.reset()
	if _, err := wk.stdin.Write(msg); err != nil {
		return nil, wk.death()
	}

	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case answer, ok := <-wk.answers:
		if !ok {
			return nil, wk.death()
		}
		return answer, ""
	case <-expired:
		return nil, fmt.Sprintf("timeout: no answer within %s", timeout)
	}
}

// death waits for the dead worker to exit and explains why it died, from the
// first line of the Go runtime's report on its stderr.
func (wk *worker) death() string {
	_ = wk.stdin.Close()
	for range wk.answers { // drain until stdout closes
	}
	waitErr := wk.cmd.Wait()
	wk.copied.Wait()
	reason := fatalReason(wk.stderr.String())
	if reason == "" && waitErr != nil {
		reason = waitErr.Error()
	}
	if reason == "" {
		reason = "exited without answering"
	}
	return "worker process died: " + reason
}

// stop ends the worker, killing it if it is still running.
func (wk *worker) stop() {
	_ = wk.stdin.Close()
	if wk.cmd.ProcessState == nil {
		_ = wk.cmd.Process.Kill()
		for range wk.answers {
		}
		_ = wk.cmd.Wait()
	}
	wk.copied.Wait()
}

// fatalReason picks the Go runtime's headline out of a dying process's stderr.
func fatalReason(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ") {
			return line
		}
	}
	return ""
}

// requestID recovers a request's id for a crash report, or nil.
func requestID(line []byte) json.RawMessage {
	var fields struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &fields) != nil {
		return nil
	}
	return fields.ID
}

// headBuffer keeps the first limit bytes written since the last reset: the Go
// runtime puts its headline first, and a stack dump can be long.
type headBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.limit - len(h.buf); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		h.buf = append(h.buf, p[:room]...)
	}
	return len(p), nil
}

func (h *headBuffer) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf = h.buf[:0]
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.buf)
}
