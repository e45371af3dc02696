package cogs.savina.bitonicsort

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl, Sorted}
import cogs.savina.bitonicsort.BitonicSort.{Dealer, Merge, Step}

/**
 * Bitonic sort on Cogs: the same network, one object per Savina actor, each in its own COG and
 * creating its parts in its constructor (ABS's init block); a value moves on with a one-way
 * call (`tell`, no future). Splitters, exchangers and joiners rely on a COG running one sender's
 * calls in the order they were sent. A joiner's `run` process loops: await the condition "the
 * next value in order has arrived" (the `data` calls run in between, in the same COG), then pass
 * on every value that is in order. Joiners know how many values they get and the validator how
 * many it expects, so no end-of-stream message follows the values (Savina's exit messages only
 * stop its actors).
 */
object BitonicSortCogs {

  trait Values extends Active {
    def value(v: Long): Proc[Unit]
  }

  /** What joiners receive: a value and the index of the branch it comes from. */
  trait Tagged extends Active {
    def data(from: Int, v: Long): Proc[Unit]
  }

  /** A component that passes every value on to `entry`, the first object of the part it stands for. */
  final class Wrapper(build: => Values) extends ActiveObject with Values {
    private[this] val entry = build
    def value(v: Long): Proc[Unit] = { entry.tell("value")(_.value(v)); Proc.unit }
  }

  private def kernel(n: Int, next: Values): Values =
    Cogs.spawn(new Wrapper(BitonicSort.stages(n).foldRight(next)((steps, after) => stage(steps, after))))

  private def stage(steps: List[Step], next: Values): Values =
    Cogs.spawn(new Wrapper(steps.foldRight(next)((s, after) => step(s, after))))

  /** A step: splitter, partitions (or exchangers when the runs have 2 values), joiner, and an adapter except in the last stage. */
  private def step(s: Step, next: Values): Values =
    Cogs.spawn(new Wrapper({
      val out = if (s.last) next else Cogs.spawn(new Relay(next))
      val joiner: Tagged = Cogs.spawn(new Joiner(s.partitions, s.length, s.length, out))
      val workers = Array.tabulate[Values](s.partitions) { j =>
        if (s.length > 2) partition(j, s.length, s.ascending(j), joiner)
        else Cogs.spawn(new CompareExchange(j, s.ascending(j), joiner))
      }
      Cogs.spawn(new Splitter(s.length, workers))
    }))

  /** A partition: splitter, length / 2 exchangers, joiner, and an adapter that tags its values with the partition's index. */
  private def partition(order: Int, length: Int, ascending: Boolean, next: Tagged): Values =
    Cogs.spawn(new Wrapper({
      val half = length / 2
      val tagger = Cogs.spawn(new Tagger(order, next))
      val joiner: Tagged = Cogs.spawn(new Joiner(half, 1, 2, tagger))
      val exchangers = Array.tabulate[Values](half)(i => Cogs.spawn(new CompareExchange(i, ascending, joiner)))
      Cogs.spawn(new Splitter(1, exchangers))
    }))

  /** Savina's value-to-data adapter. */
  final class Tagger(order: Int, next: Tagged) extends ActiveObject with Values {
    def value(v: Long): Proc[Unit] = { next.tell("data")(_.data(order, v)); Proc.unit }
  }

  /** Savina's data-to-value adapter, which in this network only ever sees values. */
  final class Relay(next: Values) extends ActiveObject with Values {
    def value(v: Long): Proc[Unit] = { next.tell("value")(_.value(v)); Proc.unit }
  }

  final class Splitter(runLength: Int, receivers: Array[Values]) extends ActiveObject with Values {
    private[this] val dealer = new Dealer(runLength, receivers.length)
    def value(v: Long): Proc[Unit] = { receivers(dealer.next()).tell("value")(_.value(v)); Proc.unit }
  }

  final class CompareExchange(order: Int, ascending: Boolean, next: Tagged) extends ActiveObject with Values {
    private[this] var held = 0L
    private[this] var holding = false

    def value(v: Long): Proc[Unit] = {
      if (!holding) { held = v; holding = true }
      else {
        holding = false
        val lo = math.min(held, v)
        val hi = math.max(held, v)
        val (first, second) = if (ascending) (lo, hi) else (hi, lo)
        next.tell("data")(_.data(order, first))
        next.tell("data")(_.data(order, second))
      }
      Proc.unit
    }
  }

  final class Joiner(ways: Int, runLength: Int, perWay: Int, next: Values) extends ActiveObject with Tagged {
    private[this] val merge = new Merge(ways, runLength, perWay)

    def data(from: Int, v: Long): Proc[Unit] = { merge.put(from, v); Proc.unit }

    override def run(): Proc[Unit] =
      Proc.loopWhile(!merge.complete) {
        Proc.awaitUntil(merge.available).map { _ =>
          while (merge.available) { val v = merge.take(); next.send("value")(_.value(v)) }
        }
      }
  }

  final class Validator(n: Int, sink: Sink[Sorted]) extends ActiveObject with Values {
    private[this] val validation = new Sorted.Validation

    def value(v: Long): Proc[Unit] = {
      if (validation.add(v) == n) { val r = validation.result; sink.send("deliver")(_.deliver(r)) }
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): Sorted =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[Sorted])
      val validator = Cogs.spawn(new Validator(p.values, sink))
      val first = kernel(p.values, Cogs.spawn(new Relay(validator)))
      val xs = BitonicSort.input(p)
      var i = 0
      while (i < xs.length) { val x = xs(i); first.send("value")(_.value(x)); i += 1 }
      sink.result
    }
}
