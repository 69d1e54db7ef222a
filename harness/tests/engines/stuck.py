"""A persistent engine that answers nothing: it starts a helper process
(as a real engine might), writes both process ids to the file named by
$STUCK_PIDS, and then sleeps."""
import os
import subprocess
import sys
import time

helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.environ["STUCK_PIDS"], "w") as f:
    f.write(f"{os.getpid()} {helper.pid}\n")
while True:
    time.sleep(60)
