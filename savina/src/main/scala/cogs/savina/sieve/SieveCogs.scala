package cogs.savina.sieve

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl}

/**
 * Sieve on Cogs: each filter is an object in its own COG; a candidate moves on with a one-way
 * call `next.tell("candidate")(_.candidate(n))` (no future). A filter sees the candidates in increasing
 * order because a COG runs the calls of one sender in the order they were sent (the algorithm
 * needs it: a filter must know every smaller prime before it judges a number). The end marker
 * follows the candidates down the pipeline; the last filter delivers the count to the sink.
 */
object SieveCogs {

  trait Filter extends Active {
    def candidate(n: Long): Proc[Unit]
    def finish(): Proc[Unit]
  }

  final class FilterImpl(index: Int, first: Long, capacity: Int, sink: Sink[Long]) extends ActiveObject with Filter {
    private[this] val primes = new Array[Long](capacity)
    private[this] var count = 1
    private[this] var next: Filter = _
    primes(0) = first

    def candidate(n: Long): Proc[Unit] = {
      if (Sieve.locallyPrime(n, primes, count)) {
        if (next ne null) next.tell("candidate")(_.candidate(n))
        else if (count < capacity) { primes(count) = n; count += 1 }
        else next = Cogs.spawn(new FilterImpl(index + 1, n, capacity, sink))
      }
      Proc.unit
    }

    def finish(): Proc[Unit] = {
      if (next ne null) next.tell("finish")(_.finish())
      else {
        val total = index.toLong * capacity + count
        sink.tell("deliver")(_.deliver(total))
      }
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[Long])
      val first: Filter = Cogs.spawn(new FilterImpl(0, 2, p.primesPerFilter, sink))
      var n = 3L
      while (n < p.limit) {
        val c = n
        first.tell("candidate")(_.candidate(c))
        n += 2
      }
      first.tell("finish")(_.finish())
      sink.result
    }
}
