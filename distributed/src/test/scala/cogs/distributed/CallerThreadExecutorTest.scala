package cogs.distributed

import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import java.util.concurrent.{CountDownLatch, TimeUnit}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{Test, Timeout}

/**
 * The endpoint's executor: every task runs exactly once, on the submitting thread, before the
 * outermost `execute` returns; a task that submits tasks (a mailbox that schedules itself again)
 * does not grow the stack; threads do not share their queues.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CallerThreadExecutorTest {

  @Test def nestedSubmissionsRunAfterTheCurrentTaskOnTheSameThread(): Unit = {
    val ex = new CallerThreadExecutor
    val order = new java.util.ArrayList[String]
    val me = Thread.currentThread()
    ex.execute { () =>
      order.add("outer start")
      ex.execute(() => { assertSame(me, Thread.currentThread()); order.add("inner") })
      order.add("outer end")
    }
    assertEquals(java.util.List.of("outer start", "outer end", "inner"), order)
    // A chain of 1,000,000 tasks each submitting the next: run one after the other, not nested.
    val left = new AtomicInteger(1000000)
    lazy val step: Runnable = () => if (left.decrementAndGet() > 0) ex.execute(step)
    ex.execute(step)
    assertEquals(0, left.get)
  }

  @Test def manyThreadsEachRunExactlyTheirOwnTasks(): Unit = {
    val ex = new CallerThreadExecutor
    val threads = 8
    val perThread = 200000
    val ran = new AtomicLong
    val wrongThread = new AtomicLong
    val start = new CountDownLatch(1)
    val ts = (0 until threads).map { _ =>
      new Thread(() => {
        start.await()
        val mine = Thread.currentThread()
        var i = 0
        while (i < perThread) {
          // Every other task submits one more from inside: both must run, on this thread.
          ex.execute { () =>
            if (Thread.currentThread() ne mine) wrongThread.incrementAndGet()
            ran.incrementAndGet()
            ex.execute(() => { if (Thread.currentThread() ne mine) wrongThread.incrementAndGet(); ran.incrementAndGet() })
          }
          i += 2
        }
      })
    }
    ts.foreach(_.start())
    start.countDown()
    ts.foreach(_.join())
    assertEquals(threads.toLong * perThread, ran.get)
    assertEquals(0L, wrongThread.get)
  }

  @Test def aTaskThatThrowsDoesNotStopTheOnesQueuedBehindIt(): Unit = {
    val ex = new CallerThreadExecutor
    val ran = new AtomicInteger
    val saved = Thread.getDefaultUncaughtExceptionHandler
    val seen = new AtomicInteger
    Thread.setDefaultUncaughtExceptionHandler((_, _) => seen.incrementAndGet())
    try ex.execute { () =>
      ex.execute(() => throw new IllegalStateException("a task failed"))
      ex.execute(() => ran.incrementAndGet())
    } finally Thread.setDefaultUncaughtExceptionHandler(saved)
    assertEquals(1, ran.get)
    assertEquals(1, seen.get)
  }
}
