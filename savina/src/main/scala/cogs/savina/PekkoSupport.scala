package cogs.savina

import com.typesafe.config.ConfigFactory
import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import org.apache.pekko.actor.{Actor, ActorRef, ActorSystem, Props}
import scala.concurrent.Await
import scala.concurrent.duration._
import scala.util.control.NonFatal

/**
 * The Pekko side: one actor system per JVM, configured as Savina configures Akka (a fork-join
 * dispatcher and the single-consumer mailbox), with as many threads as the Cogs runtime gets.
 */
object PekkoSupport {

  /**
   * An actor system whose default dispatcher is a fork-join pool of exactly `threads` threads
   * (Savina's Akka runner uses `parallelism-min = parallelism-max`; Pekko's default would start at
   * least 8), the single-consumer unbounded mailbox (Savina's choice, Pekko's fastest), Pekko's
   * default throughput (5 messages per actor per turn), and quiet logging. A top-level actor
   * that throws is stopped rather than restarted, so a bug ends the run instead of hiding.
   */
  def newSystem(threads: Int): ActorSystem = {
    val config = ConfigFactory.parseString(
      s"""
      pekko {
        loglevel = WARNING
        stdout-loglevel = WARNING
        log-dead-letters = off
        log-dead-letters-during-shutdown = off
        jvm-exit-on-fatal-error = off
        actor {
          guardian-supervisor-strategy = "org.apache.pekko.actor.StoppingSupervisorStrategy"
          default-dispatcher {
            executor = "fork-join-executor"
            fork-join-executor {
              parallelism-min = $threads
              parallelism-max = $threads
              parallelism-factor = 1.0
            }
          }
          default-mailbox {
            mailbox-type = "org.apache.pekko.dispatch.SingleConsumerOnlyUnboundedMailbox"
          }
        }
      }
      """)
    ActorSystem("savina", ConfigFactory.load(config))
  }

  def terminate(system: ActorSystem): Unit = {
    system.terminate()
    Await.ready(system.whenTerminated, 30.seconds)
  }

  /** How long a run may take before it is declared stuck (seconds; system property `savina.timeout`). */
  def timeoutSeconds: Long = java.lang.Long.getLong("savina.timeout", 600L)
}

/**
 * One run of a benchmark on Pekko. It counts the actors the run created (through [[actorOf]]) and
 * ends when every one of them has stopped, as Savina's Akka runner waits for every actor to exit;
 * and it carries the run's answer, which an actor delivers with [[answer]].
 *
 * The counter starts at one for the thread that sets the run up, so that it cannot reach zero
 * before the first actors exist; [[await]] gives that token back. An actor that throws records
 * the failure and ends the run at once.
 */
final class PekkoRun[A](val system: ActorSystem, val benchmark: String) {
  private[this] val live = new AtomicInteger(1)
  private[this] val finished = new CountDownLatch(1)
  private[this] val result = new AtomicReference[Option[A]](None)
  private[this] val failure = new AtomicReference[Throwable](null)

  /** Create a top-level actor that belongs to this run (Savina creates every actor at top level). */
  def actorOf(props: Props): ActorRef = {
    live.incrementAndGet()
    system.actorOf(props)
  }

  /** Deliver the run's answer (once). */
  def answer(a: A): Unit =
    if (!result.compareAndSet(None, Some(a))) fail(new IllegalStateException(s"$benchmark: a second answer $a"))

  def fail(e: Throwable): Unit = {
    failure.compareAndSet(null, e)
    finished.countDown()
  }

  private[savina] def actorStopped(): Unit = if (live.decrementAndGet() == 0) finished.countDown()

  /** Wait until every actor of the run has stopped; its answer, or an exception saying why there is none. */
  def await(): A = {
    awaitStopped()
    result.get.getOrElse(throw new IllegalStateException(s"$benchmark on pekko: every actor stopped without an answer"))
  }

  /** Wait until every actor of the run has stopped (for runs whose answer is read afterwards); throws if one failed. */
  def awaitStopped(): Unit = {
    actorStopped() // the setting-up thread's token
    val limit = PekkoSupport.timeoutSeconds
    if (!finished.await(limit, TimeUnit.SECONDS))
      throw new IllegalStateException(s"$benchmark on pekko: still running after $limit s (${live.get} actors alive)")
    val e = failure.get
    if (e ne null) throw new IllegalStateException(s"$benchmark on pekko: an actor failed: $e", e)
  }
}

/** Base class of the benchmarks' actors: tells the run when it stops, and reports failures. */
abstract class BenchActor(run: PekkoRun[_]) extends Actor {
  override def aroundReceive(receive: Actor.Receive, msg: Any): Unit =
    try super.aroundReceive(receive, msg)
    catch {
      case NonFatal(e) =>
        run.fail(e)
        throw e
    }

  override def postStop(): Unit = run.actorStopped()

  /** Savina's `exit()`: stop this actor. */
  protected final def exit(): Unit = context.stop(self)
}
