import Foundation

/// Runs `body` on a new thread with a stack of `stackSize` bytes, for
/// recursion deeper than a test's own thread allows, and waits for it.
func onThread<T>(stackSize: Int, _ body: @escaping @Sendable () -> T?) -> T? {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = body()
    done.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  done.wait()
  return box.value
}

/// Carries a result from another thread; the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
