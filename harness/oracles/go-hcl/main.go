// Command go-hcl-oracle evaluates HCL native-syntax expressions and string
// templates with the real hashicorp/hcl and go-cty libraries. It speaks
// hclspec's engine protocol v1: one JSON request per line on stdin, one JSON
// response per line on stdout, in request order, until EOF.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// maxLineBytes bounds one request line; sources can be large, but a runaway
// line must not exhaust memory.
const maxLineBytes = 64 << 20

func main() {
	listFunctions := flag.Bool("list-functions", false, "print the names of the functions available to expressions, one per line, and exit")
	worker := flag.Bool(workerFlag[1:], false, "serve requests in this process, without a supervising parent (a runtime abort then ends the process)")
	timeout := flag.Duration("timeout", 0, "report a crash when one request takes longer than this (0: no limit; not with -worker)")
	maxStack := flag.Int(maxStackFlag[1:], 0, "goroutine stack limit in bytes for evaluation (0: Go's default of 1 GB)")
	flag.Parse()

	var err error
	switch {
	case *listFunctions:
		for _, name := range functionNames() {
			fmt.Println(name)
		}
	case *worker:
		if *maxStack > 0 {
			debug.SetMaxStack(*maxStack)
		}
		// A request's garbage is small and short-lived, and the live heap a
		// few megabytes: collecting when the heap has grown by three times
		// the live heap rather than by once took a busy worker about an
		// eighth less CPU time (21,600 fuzz cases, four runs each).
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(300)
		}
		err = serve(os.Stdin, os.Stdout)
	default:
		var workerArgs []string
		if *maxStack > 0 {
			workerArgs = append(workerArgs, fmt.Sprintf("%s=%d", maxStackFlag, *maxStack))
		}
		err = supervise(os.Stdin, os.Stdout, *timeout, workerArgs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-hcl-oracle:", err)
		os.Exit(1)
	}
}

// serve answers every request line read from r on w, in this process.
func serve(r io.Reader, w io.Writer) error {
	ev := newEvaluator()
	return answerLines(r, w, func(line []byte) ([]byte, error) {
		return ev.handleLine(line).encode(), nil
	})
}

// answerLines writes one answer line for every non-blank line of r. Only I/O
// failures and errors from answer end it early; an over-long line gets a
// request error, so that answers stay in step with requests.
func answerLines(r io.Reader, w io.Writer, answer func(line []byte) ([]byte, error)) error {
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriterSize(w, 1<<16)
	for {
		line, tooLong, readErr := readLine(in, maxLineBytes)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return readErr
		}
		var reply []byte
		switch {
		case tooLong:
			reply = requestError(nil, fmt.Sprintf("request line exceeds %d bytes", maxLineBytes)).encode()
		case len(bytes.TrimSpace(line)) > 0:
			var err error
			if reply, err = answer(line); err != nil {
				return err
			}
		}
		if reply != nil {
			if err := writeLine(out, reply); err != nil {
				return err
			}
		}
		// The answers wait in out's buffer only while another whole request
		// is already read (its answer follows at once): one write for a
		// pipelined batch rather than one per answer, and a harness waiting
		// for an answer before sending more never stalls.
		if !lineWaiting(in) {
			if err := out.Flush(); err != nil {
				return err
			}
		}
		if readErr != nil { // io.EOF, after the final unterminated line
			return nil
		}
	}
}

// readLine returns the next line without its terminator. A line longer than
// limit is consumed and discarded, and reported through tooLong, so that the
// stream stays in step with the requests.
func readLine(in *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := in.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > limit+2 { // +2 leaves room for "\r\n"
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(buf) == 0 && !tooLong {
			return nil, false, err
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, tooLong, err
	}
}

// writeLine writes one line into out; answerLines flushes.
func writeLine(out *bufio.Writer, line []byte) error {
	if _, err := out.Write(line); err != nil {
		return err
	}
	return out.WriteByte('\n')
}

// lineWaiting reports whether a whole request line is already read into
// in's buffer. A partial line does not count: its rest may only come once
// the client has seen the answers written so far.
func lineWaiting(in *bufio.Reader) bool {
	buffered, _ := in.Peek(in.Buffered())
	return bytes.IndexByte(buffered, '\n') >= 0
}
