package cogs.savina.filterbank

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.filterbank.FilterBank.{DelayLine, Fir, Sampler}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * FilterBank on Pekko with Savina's protocol: the producer answers each "next" of the source
 * with a "boot" (the source sends a sample on and asks for the next), `simulations` times, then
 * an exit; values and the exit marker flow down the same actors as in Savina; the integrator
 * passes the exit on once every bank's came; the sink delivers the answer when it gets it.
 * (Savina's Akka version warns that it deadlocks; this one has not hung in any run so far.)
 */
object FilterBankPekko {

  private final class Next(val source: ActorRef)
  private case object Boot
  private case object Exit
  private final class Value(val v: Double)
  private final class Sourced(val bank: Int, val v: Double)
  private final class Row(val values: Array[Double])

  def run(system: ActorSystem, p: Params): Output = {
    val run = new PekkoRun[Output](system, FilterBank.name)
    val producer = run.actorOf(Props(new Producer(run, p.simulations)))
    val sink = run.actorOf(Props(new SinkActor(run)))
    val combine = run.actorOf(Props(new CombineActor(run, sink)))
    val integrator = run.actorOf(Props(new IntegratorActor(run, p.channels, combine)))
    val branches = run.actorOf(Props(new Branches(run, p, integrator)))
    val source = run.actorOf(Props(new SourceActor(run, producer, branches)))
    producer ! new Next(source)
    run.await()
  }

  private final class Producer(run: PekkoRun[Output], samples: Int) extends BenchActor(run) {
    private[this] var sent = 0

    def receive: Receive = {
      case n: Next =>
        if (sent == samples) { n.source ! Exit; exit() }
        else { n.source ! Boot; sent += 1 }
    }
  }

  private final class SourceActor(run: PekkoRun[Output], producer: ActorRef, next: ActorRef) extends BenchActor(run) {
    private[this] var i = 0
    private[this] val again = new Next(self)

    def receive: Receive = {
      case Boot =>
        next ! new Value(FilterBank.sample(i))
        i += 1
        producer ! again
      case Exit => next ! Exit; exit()
    }
  }

  private final class Branches(run: PekkoRun[Output], p: Params, integrator: ActorRef) extends BenchActor(run) {
    private[this] val banks = Array.tabulate(p.channels)(c => run.actorOf(Props(new Bank(run, p, c, integrator))))

    def receive: Receive = {
      case v: Value => banks.foreach(_ ! v)
      case Exit     => banks.foreach(_ ! Exit); exit()
    }
  }

  private final class Bank(run: PekkoRun[Output], p: Params, c: Int, integrator: ActorRef) extends BenchActor(run) {
    private[this] val first: ActorRef = {
      val tag = run.actorOf(Props(new Tag(run, c, integrator)))
      val fir2 = run.actorOf(Props(new FirActor(run, FilterBank.f(p, c), tag)))
      val delay2 = run.actorOf(Props(new DelayActor(run, p.columns - 1, fir2)))
      val sampler = run.actorOf(Props(new SamplerActor(run, p.columns, delay2)))
      val fir1 = run.actorOf(Props(new FirActor(run, FilterBank.h(p, c), sampler)))
      run.actorOf(Props(new DelayActor(run, p.columns - 1, fir1)))
    }

    def receive: Receive = {
      case v: Value => first ! v
      case Exit     => first ! Exit; exit()
    }
  }

  /** A stage that passes the exit marker on and stops. */
  private abstract class Stage(run: PekkoRun[Output], next: ActorRef) extends BenchActor(run) {
    protected def value(v: Double): Unit

    def receive: Receive = {
      case v: Value => value(v.v)
      case Exit     => next ! Exit; exit()
    }
  }

  private final class DelayActor(run: PekkoRun[Output], length: Int, next: ActorRef) extends Stage(run, next) {
    private[this] val line = new DelayLine(length)
    protected def value(v: Double): Unit = next ! new Value(line.shift(v))
  }

  private final class FirActor(run: PekkoRun[Output], coefficients: Array[Double], next: ActorRef) extends Stage(run, next) {
    private[this] val fir = new Fir(coefficients)
    protected def value(v: Double): Unit = if (fir.push(v)) next ! new Value(fir.output)
  }

  private final class SamplerActor(run: PekkoRun[Output], rate: Int, next: ActorRef) extends Stage(run, next) {
    private[this] val sampler = new Sampler(rate)
    protected def value(v: Double): Unit = next ! new Value(sampler.pass(v))
  }

  private final class Tag(run: PekkoRun[Output], c: Int, next: ActorRef) extends Stage(run, next) {
    protected def value(v: Double): Unit = next ! new Sourced(c, v)
  }

  private final class IntegratorActor(run: PekkoRun[Output], channels: Int, next: ActorRef) extends BenchActor(run) {
    private[this] val rows = new FilterBank.Integrator(channels)
    private[this] var exits = 0

    def receive: Receive = {
      case s: Sourced =>
        val row = rows.add(s.bank, s.v)
        if (row ne null) next ! new Row(row)
      case Exit =>
        exits += 1
        if (exits == channels) { next ! Exit; exit() }
    }
  }

  private final class CombineActor(run: PekkoRun[Output], next: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case r: Row => next ! new Value(FilterBank.combine(r.values))
      case Exit   => next ! Exit; exit()
    }
  }

  private final class SinkActor(run: PekkoRun[Output]) extends BenchActor(run) {
    private[this] val tally = new FilterBank.Tally

    def receive: Receive = {
      case v: Value => tally.add(v.v)
      case Exit     => run.answer(tally.output); exit()
    }
  }
}
