import Glibc

/// The CPU time the calling thread has spent, in milliseconds (`clock_gettime` with
/// `CLOCK_THREAD_CPUTIME_ID`): what a pass costs, whatever else the machine runs.
func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}
