"""Never answers the hello."""

import sys
import time

sys.stdin.readline()
time.sleep(3600)
