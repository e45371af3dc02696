package cogs.distributed

import com.typesafe.config.Config
import java.util.concurrent.{AbstractExecutorService, ThreadFactory, TimeUnit}
import org.apache.pekko.dispatch.{DispatcherPrerequisites, ExecutorServiceConfigurator, ExecutorServiceFactory}

/**
 * The executor of the endpoint's dispatcher (`cogs.distributed.endpoint-dispatcher`): it runs a
 * task on the thread that submits it, so the endpoint actor handles a message on the thread that
 * delivered it. For a message from another node that is Artery's inbound thread, the one that
 * decoded it: a call goes from there into its object's COG, and a reply resolves its caller's
 * future from there, with no thread of a dispatcher woken in between (docs/distributed.md,
 * "The remote path").
 *
 * Why no message and no wake-up is lost: the actor's mailbox stays Pekko's. A sender enqueues its
 * message, then Pekko's `registerForExecution` schedules the mailbox only if its status CAS from
 * idle to scheduled succeeds; a mailbox already scheduled or running is left to the thread that
 * runs it, which, after its batch, sets it idle and calls `registerForExecution` again, which sees
 * the new message (Pekko's own argument, unchanged). This executor only decides where a scheduled
 * mailbox runs: on the submitting thread, now, or, if that thread is already inside a task of
 * this executor, on the same thread right after that task (a per-thread queue drained by the
 * outermost `execute`, so a mailbox that re-schedules itself, or a handler whose sends run the
 * mailbox again, never grows the stack). Every submitted task is run exactly once before the
 * outermost `execute` returns, so nothing is left waiting for a thread that will not come.
 *
 * What it asks of the handlers: they run on whatever thread sent the message (Artery's, a COG
 * worker sending a reply, the cluster's event threads, the scheduler's), so they must not block;
 * the endpoint's do not (they queue into COGs, resolve promises, send).
 */
private[distributed] final class CallerThreadExecutor extends AbstractExecutorService {
  import CallerThreadExecutor.queued

  @volatile private[this] var shut = false

  def execute(task: Runnable): Unit = {
    val q = queued.get()
    if (q ne null) q.addLast(task) // inside a task on this thread: run it right after
    else {
      val mine = new java.util.ArrayDeque[Runnable]
      queued.set(mine)
      try {
        var t = task
        while (t ne null) {
          try t.run()
          catch { case e: Throwable => Thread.getDefaultUncaughtExceptionHandler match {
            case null => e.printStackTrace()
            case h    => h.uncaughtException(Thread.currentThread(), e)
          } }
          t = mine.pollFirst()
        }
      } finally queued.remove()
    }
  }

  def shutdown(): Unit = shut = true
  def shutdownNow(): java.util.List[Runnable] = { shut = true; java.util.Collections.emptyList() }
  def isShutdown: Boolean = shut
  def isTerminated: Boolean = shut
  def awaitTermination(timeout: Long, unit: TimeUnit): Boolean = true
}

private[distributed] object CallerThreadExecutor {
  private val queued = new ThreadLocal[java.util.ArrayDeque[Runnable]]
}

/** Named by `executor` in `cogs.distributed.endpoint-dispatcher` (reference.conf). */
final class CallerThreadExecutorConfigurator(config: Config, prerequisites: DispatcherPrerequisites)
    extends ExecutorServiceConfigurator(config, prerequisites) {
  def createExecutorServiceFactory(id: String, threadFactory: ThreadFactory): ExecutorServiceFactory =
    new ExecutorServiceFactory { def createExecutorService = new CallerThreadExecutor }
}
