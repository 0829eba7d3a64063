"""Runs the desktop tests inside the session run.sh prepares (display, D-Bus, accessibility bus).

    runner.py [FILE[:Class[.test]] …]     (default: every Tests/Desktop/test_*.py)

Checks first that the accessibility bus answers, then runs the tests with unittest and prints
one line per test and a summary. Exit status 0 when all pass, 1 otherwise, 2 when the
accessibility bus is not up."""

import glob
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def accessibility_bus():
    """Starts the accessibility bus (org.a11y.Bus, activated by the session bus) and answers
    its address, or None."""
    for _ in range(50):
        result = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus",
                                 "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                                capture_output=True, text=True)
        if result.returncode == 0 and "unix:" in result.stdout:
            return result.stdout.split('"')[1]
        time.sleep(0.1)
    return None


def load(names):
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    if not names:
        names = sorted(glob.glob(os.path.join(HERE, "test_*.py")))
    for name in names:
        path, _, selector = name.partition(":")
        module_name = os.path.splitext(os.path.basename(path))[0]
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        module = __import__(module_name)
        if selector:
            suite.addTests(loader.loadTestsFromName(selector, module))
        else:
            suite.addTests(loader.loadTestsFromModule(module))
    return suite


class Result(unittest.TextTestResult):
    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def _line(self, test, word, reason=None):
        self.stream.write("%-5s %5.1fs  %s\n" % (word, time.monotonic() - self._started, test_name(test)))
        if reason:
            self.stream.write("            (%s)\n" % reason)
        self.stream.flush()

    def addSuccess(self, test):
        unittest.TestResult.addSuccess(self, test)
        self._line(test, "ok")

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._line(test, "FAIL")

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._line(test, "ERROR")

    def addSkip(self, test, reason):
        unittest.TestResult.addSkip(self, test, reason)
        self._line(test, "skip", reason)


def test_name(test):
    return "%s.%s" % (type(test).__module__, test.id().split(".", 1)[-1])


def main(argv):
    address = accessibility_bus()
    if address is None:
        print("desktop tests: the accessibility bus (org.a11y.Bus) did not start", file=sys.stderr)
        return 2
    try:
        import pyatspi
        pyatspi.Registry.getDesktop(0)
    except Exception as error:
        print("desktop tests: pyatspi cannot reach the registry: %r" % (error,), file=sys.stderr)
        return 2
    suite = load(argv)
    started = time.monotonic()
    runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=Result, verbosity=0)
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors)
    print("desktop tests: %d run, %d passed, %d failed, %d skipped in %.0f s"
          % (result.testsRun, result.testsRun - failed - len(result.skipped), failed, len(result.skipped),
             time.monotonic() - started))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
