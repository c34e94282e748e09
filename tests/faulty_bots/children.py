"""Starts child processes (one of which starts another), plays correctly, and
ignores the end message.  argv[1] is a marker put on the children's command
lines so a test can look for them."""

import subprocess
import sys
import time

from common import run

marker = sys.argv[1]
sleeper = "import subprocess, sys, time; {}time.sleep(3600)"
inner = "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)', sys.argv[1]]); "
subprocess.Popen([sys.executable, "-c", sleeper.format(inner), marker])
subprocess.Popen([sys.executable, "-c", sleeper.format(""), marker])
run("children")
time.sleep(3600)
