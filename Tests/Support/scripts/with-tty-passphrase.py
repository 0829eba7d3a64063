#!/usr/bin/env python3
"""Runs a command whose controlling terminal is a new pseudo-terminal, typing PASSPHRASE and
Enter each time it prompts (age reads passphrases only from the terminal). Standard input and
output stay as they are; standard error is the terminal (age prompts there), and what comes
out of it is copied to this script's standard error. The exit status is the command's.

Usage: with-tty-passphrase.py PASSPHRASE COMMAND [ARG...]
"""
import os
import pty
import select
import sys


def main():
    passphrase = sys.argv[1].encode("utf-8")
    command = sys.argv[2:]
    saved = [os.dup(fd) for fd in (0, 1)]
    pid, master = pty.fork()
    if pid == 0:
        # pty.fork made the pty the child's stdio; give back the caller's, keep the pty as the
        # controlling terminal (/dev/tty).
        for fd, copy in zip((0, 1), saved):
            os.dup2(copy, fd)
        os.execvp(command[0], command)
    typed = 0
    buffer = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            os.kill(pid, 9)
            break
        try:
            data = os.read(master, 1024)
        except OSError:
            break
        if not data:
            break
        buffer += data
        sys.stderr.buffer.write(data)
        sys.stderr.flush()
        # age asks "Enter passphrase" and, when sealing, "Confirm passphrase".
        while typed < buffer.lower().count(b"passphrase"):
            os.write(master, passphrase + b"\n")
            typed += 1
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
