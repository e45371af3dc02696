package cogs.savina.radixsort

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl, Sorted}

/** Radix sort on Cogs: every stage is an object in its own COG; a value moves on with the one-way call `next.tell("value")(_.value(v))` (no future). */
object RadixSortCogs {

  trait Stage extends Active {
    def value(v: Long): Proc[Unit]
  }

  final class SortStage(n: Int, radix: Long, next: Stage) extends ActiveObject with Stage {
    private[this] val held = new Array[Long](n)
    private[this] var heldCount = 0
    private[this] var seen = 0

    def value(v: Long): Proc[Unit] = {
      seen += 1
      if ((v & radix) == 0) next.tell("value")(_.value(v))
      else { held(heldCount) = v; heldCount += 1 }
      if (seen == n) {
        var i = 0
        while (i < heldCount) { val x = held(i); next.tell("value")(_.value(x)); i += 1 }
      }
      Proc.unit
    }
  }

  final class Validator(n: Int, sink: Sink[Sorted]) extends ActiveObject with Stage {
    private[this] val validation = new Sorted.Validation
    def value(v: Long): Proc[Unit] = {
      if (validation.add(v) == n) {
        val r = validation.result
        sink.tell("deliver")(_.deliver(r))
      }
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): Sorted =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[Sorted])
      var next: Stage = Cogs.spawn(new Validator(p.values, sink))
      for (radix <- RadixSort.radixes(p).reverse) {
        val after = next
        next = Cogs.spawn(new SortStage(p.values, radix, after))
      }
      val first = next
      val xs = RadixSort.input(p)
      var i = 0
      while (i < xs.length) { val x = xs(i); first.tell("value")(_.value(x)); i += 1 }
      sink.result
    }
}
