package cogs.savina.bitonicsort

import cogs.savina.{BenchActor, PekkoRun, Sorted}
import cogs.savina.bitonicsort.BitonicSort.{Dealer, Merge, Step}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * Bitonic sort on Pekko with Savina's actors and protocol: every component of the network is an
 * actor that creates its parts in its constructor (kernel, merge stages, steps, partitions,
 * splitters, exchangers, joiners, adapters); values stream through one message each, and an
 * exit message follows them down every branch, joiners passing it on once every branch's came.
 */
object BitonicSortPekko {

  private final class Value(val v: Long)
  private final class Data(val from: Int, val v: Long)
  private case object Exit
  private case object Start

  def run(system: ActorSystem, p: Params): Sorted = {
    val run = new PekkoRun[Sorted](system, BitonicSort.name)
    val validator = run.actorOf(Props(new Validator(run)))
    val adapter = run.actorOf(Props(new Relay(run, validator)))
    val kernel = run.actorOf(Props(new Wrapper(run, kernelEntry(run, p.values, adapter))))
    run.actorOf(Props(new Source(run, p, kernel))) ! Start
    run.await()
  }

  /** Ends by passing values and the exit message on to `entry`, the first actor of the part it stands for. */
  private final class Wrapper(run: PekkoRun[Sorted], entry: => ActorRef) extends BenchActor(run) {
    // Built when the actor starts (on its own thread, as Savina's constructors build their parts).
    private[this] val target = entry

    def receive: Receive = {
      case v: Value => target ! v
      case Exit     => target ! Exit; exit()
    }
  }

  private def kernelEntry(run: PekkoRun[Sorted], n: Int, next: ActorRef): ActorRef =
    BitonicSort.stages(n).foldRight(next)((steps, after) => run.actorOf(Props(new Wrapper(run, stageEntry(run, steps, after)))))

  private def stageEntry(run: PekkoRun[Sorted], steps: List[Step], next: ActorRef): ActorRef =
    steps.foldRight(next)((step, after) => run.actorOf(Props(new Wrapper(run, stepEntry(run, step, after)))))

  /** A step: splitter, partitions (or exchangers when the runs have 2 values), joiner, and an adapter except in the last stage. */
  private def stepEntry(run: PekkoRun[Sorted], step: Step, next: ActorRef): ActorRef = {
    val out = if (step.last) next else run.actorOf(Props(new Relay(run, next)))
    val joiner = run.actorOf(Props(new Joiner(run, step.partitions, step.length, step.length, out)))
    val workers = Array.tabulate(step.partitions) { j =>
      if (step.length > 2) run.actorOf(Props(new Wrapper(run, partitionEntry(run, j, step.length, step.ascending(j), joiner))))
      else run.actorOf(Props(new CompareExchange(run, j, step.ascending(j), joiner)))
    }
    run.actorOf(Props(new Splitter(run, step.length, workers)))
  }

  /** A partition: splitter, length / 2 exchangers, joiner, and an adapter that tags its values with the partition's index. */
  private def partitionEntry(run: PekkoRun[Sorted], order: Int, length: Int, ascending: Boolean, next: ActorRef): ActorRef = {
    val half = length / 2
    val tagger = run.actorOf(Props(new Tagger(run, order, next)))
    val joiner = run.actorOf(Props(new Joiner(run, half, 1, 2, tagger)))
    val exchangers = Array.tabulate(half)(i => run.actorOf(Props(new CompareExchange(run, i, ascending, joiner))))
    run.actorOf(Props(new Splitter(run, 1, exchangers)))
  }

  private final class Source(run: PekkoRun[Sorted], p: Params, next: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case Start =>
        val xs = BitonicSort.input(p)
        var i = 0
        while (i < xs.length) { next ! new Value(xs(i)); i += 1 }
        next ! Exit
        exit()
    }
  }

  /** Savina's value-to-data adapter: tags each value with the index of the partition it leaves. */
  private final class Tagger(run: PekkoRun[Sorted], order: Int, next: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case v: Value => next ! new Data(order, v.v)
      case Exit     => next ! Exit; exit()
    }
  }

  /** Savina's data-to-value adapter, which in this network only ever sees values: passes them on. */
  private final class Relay(run: PekkoRun[Sorted], next: ActorRef) extends BenchActor(run) {
    def receive: Receive = {
      case v: Value => next ! v
      case Exit     => next ! Exit; exit()
    }
  }

  private final class Splitter(run: PekkoRun[Sorted], runLength: Int, receivers: Array[ActorRef]) extends BenchActor(run) {
    private[this] val dealer = new Dealer(runLength, receivers.length)

    def receive: Receive = {
      case v: Value => receivers(dealer.next()) ! v
      case Exit     => receivers.foreach(_ ! Exit); exit()
    }
  }

  private final class CompareExchange(run: PekkoRun[Sorted], order: Int, ascending: Boolean, next: ActorRef) extends BenchActor(run) {
    private[this] var held = 0L
    private[this] var holding = false

    def receive: Receive = {
      case v: Value =>
        if (!holding) { held = v.v; holding = true }
        else {
          holding = false
          val lo = math.min(held, v.v)
          val hi = math.max(held, v.v)
          if (ascending) { next ! new Data(order, lo); next ! new Data(order, hi) }
          else { next ! new Data(order, hi); next ! new Data(order, lo) }
        }
      case Exit => next ! Exit; exit()
    }
  }

  private final class Joiner(run: PekkoRun[Sorted], ways: Int, runLength: Int, perWay: Int, next: ActorRef) extends BenchActor(run) {
    private[this] val merge = new Merge(ways, runLength, perWay)
    private[this] var exits = 0

    def receive: Receive = {
      case d: Data =>
        merge.put(d.from, d.v)
        while (merge.available) next ! new Value(merge.take())
      case Exit =>
        exits += 1
        if (exits == ways) { next ! Exit; exit() }
    }
  }

  private final class Validator(run: PekkoRun[Sorted]) extends BenchActor(run) {
    private[this] val validation = new Sorted.Validation

    def receive: Receive = {
      case v: Value => validation.add(v.v)
      case Exit     => run.answer(validation.result); exit()
    }
  }
}
