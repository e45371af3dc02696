package cogs.examples

import cogs.runtime._
import scala.collection.mutable

/**
 * A bounded buffer guarded by conditions, with producers and consumers in COGs of their own.
 *
 * {{{
 * class Buffer(Int capacity) implements Buffer {
 *   List<Int> items = Nil; Int count = 0;
 *   Unit put(Int x) { await count < capacity; items = appendright(items, x); count = count + 1; }
 *   Int take()      { await count > 0; Int x = head(items); items = tail(items); count = count - 1; return x; }
 * }
 * }}}
 *
 * `await count < capacity` suspends the `put` process and frees the buffer's COG, so a `take`
 * can run and make room; the COG re-checks a suspended condition only after one of its processes
 * ran (nothing polls). Each producer awaits every `put` before the next, each consumer awaits
 * every `take`: no item is lost, none is taken twice, which the consumers' tallies prove.
 */
object BoundedBuffer {

  trait Buffer extends Active {
    def put(item: Int): Proc[Unit]
    def take(): Proc[Int]
    /** The most items the buffer ever held (never more than its capacity). */
    def fullest(): Proc[Int]
  }

  final class BufferImpl(capacity: Int) extends ActiveObject with Buffer {
    require(capacity > 0, "capacity must be positive")
    private val ring = new Array[Int](capacity)
    private var first = 0
    private var count = 0
    private var highWater = 0

    private val notFull = Guard.cond("buffer not full")(count < capacity)
    private val notEmpty = Guard.cond("buffer not empty")(count > 0)

    def put(item: Int): Proc[Unit] =
      Proc.await(notFull) >> Proc.delay {
        ring((first + count) % capacity) = item
        count += 1
        if (count > highWater) highWater = count
      }

    def take(): Proc[Int] =
      Proc.await(notEmpty) >> Proc.delay {
        val item = ring(first)
        first = (first + 1) % capacity
        count -= 1
        item
      }

    def fullest(): Proc[Int] = Proc.delay(highWater)

    override def toString = s"buffer($capacity)"
  }

  /** What one producer put: how many items, and their sum. */
  final case class Sent(count: Long, sum: Long)

  trait Producer extends Active {
    /** Put items `from until from + k`, one after the other. */
    def produce(from: Int, k: Int): Proc[Sent]
  }

  final class ProducerImpl(buffer: Buffer, name: String) extends ActiveObject with Producer {
    def produce(from: Int, k: Int): Proc[Sent] = {
      var count, sum = 0L
      Proc.repeat(k) { i =>
        val item = from + i
        Proc.await(buffer.send("put")(_.put(item))).map { _ => // await buffer ! put(item)
          count += 1
          sum += item
        }
      }.map(_ => Sent(count, sum))
    }
    override def toString = name
  }

  /**
   * What one consumer took: how many items, their sum, a bit per item number, and how many
   * items it took more than once itself.
   */
  final class Tally(val count: Long, val sum: Long, val seen: mutable.BitSet, val repeats: Long)

  trait Consumer extends Active {
    /** Take `quota` items. */
    def consume(quota: Int): Proc[Tally]
  }

  final class ConsumerImpl(buffer: Buffer, name: String) extends ActiveObject with Consumer {
    def consume(quota: Int): Proc[Tally] = {
      var count, sum, repeats = 0L
      val seen = mutable.BitSet.empty
      Proc.repeat(quota) { _ =>
        Proc.await(buffer.send("take")(_.take())).map { item => // Int item = await buffer ! take()
          count += 1
          sum += item
          if (!seen.add(item)) repeats += 1
        }
      }.map(_ => new Tally(count, sum, seen, repeats))
    }
    override def toString = name
  }

  final case class Result(
      producers: Int,
      consumers: Int,
      perProducer: Int,
      capacity: Int,
      produced: Long,
      consumed: Long,
      producedSum: Long,
      consumedSum: Long,
      duplicates: Long,
      missing: Long,
      strays: Long,
      fullest: Int,
      elapsedNanos: Long
  ) extends Outcome {
    def total: Long = producers.toLong * perProducer
    def expectedSum: Long = total * (total - 1) / 2 // items are numbered 0 until total

    def problems: List[String] =
      List(
        if (produced != total) Some(s"$produced items were put, expected $total") else None,
        if (consumed != total) Some(s"$consumed items were taken, expected $total") else None,
        if (producedSum != expectedSum) Some(s"the producers' checksum is $producedSum, expected $expectedSum") else None,
        if (consumedSum != expectedSum) Some(s"the consumers' checksum is $consumedSum, expected $expectedSum") else None,
        if (duplicates != 0) Some(s"$duplicates items were taken more than once") else None,
        if (missing != 0) Some(s"$missing items were never taken") else None,
        if (strays != 0) Some(s"$strays items taken were never put") else None,
        if (fullest > capacity) Some(s"the buffer held $fullest items, more than its capacity $capacity") else None
      ).flatten

    def report: String =
      s"buffer: $producers producers x $perProducer items -> $consumers consumers through a buffer of $capacity: " +
        s"$consumed of $total items taken exactly once (checksum $consumedSum), buffer held at most $fullest, " +
        s"time ${ExampleMain.millis(elapsedNanos)}"
  }

  def run(rt: CogRuntime, producers: Int, consumers: Int, perProducer: Int, capacity: Int): Result = {
    require(producers > 0 && consumers > 0 && perProducer > 0 && capacity > 0)
    val total = producers.toLong * perProducer
    require(total <= Int.MaxValue, "too many items")
    val start = System.nanoTime()
    val result = rt.run {
      val buffer: Buffer = Cogs.spawn(new BufferImpl(capacity))
      val produced: List[Fut[Sent]] = List.tabulate(producers) { p =>
        val producer: Producer = Cogs.spawn(new ProducerImpl(buffer, s"producer-$p"))
        val from = p * perProducer
        producer.send("produce")(_.produce(from, perProducer))
      }
      // Split the items as evenly as possible: the first (total % consumers) take one more.
      val consumed: List[Fut[Tally]] = List.tabulate(consumers) { c =>
        val consumer: Consumer = Cogs.spawn(new ConsumerImpl(buffer, s"consumer-$c"))
        val quota = (total / consumers + (if (c < total % consumers) 1 else 0)).toInt
        consumer.send("consume")(_.consume(quota))
      }
      var sent = List.empty[Sent]
      var tallies = List.empty[Tally]
      Proc.foreach(produced)(f => Proc.await(f).map(s => sent ::= s)) >>
        Proc.foreach(consumed)(f => Proc.await(f).map(t => tallies ::= t)) >>
        Proc.await(buffer.send("fullest")(_.fullest())).map { fullest =>
          // Exactly once: no item in two tallies (or twice in one), every item 0 until total in one.
          val union = mutable.BitSet.empty
          var duplicates = tallies.map(_.repeats).sum
          for (t <- tallies) {
            duplicates += (union & t.seen).size
            union |= t.seen
          }
          val inRange = union.range(0, total.toInt).size
          Result(
            producers, consumers, perProducer, capacity,
            produced = sent.map(_.count).sum,
            consumed = tallies.map(_.count).sum,
            producedSum = sent.map(_.sum).sum,
            consumedSum = tallies.map(_.sum).sum,
            duplicates = duplicates,
            missing = total - inRange,
            strays = union.size - inRange,
            fullest = fullest,
            elapsedNanos = 0L
          )
        }
    }
    result.copy(elapsedNanos = System.nanoTime() - start)
  }

  def main(args: Array[String]): Unit =
    ExampleMain.main(
      "buffer",
      "examples/run buffer [PRODUCERS=4] [CONSUMERS=3] [ITEMS_PER_PRODUCER=100000] [CAPACITY=16]",
      args
    ) { (rt, args) =>
      run(
        rt,
        producers = ExampleMain.intArg(args, 0, "PRODUCERS", 4),
        consumers = ExampleMain.intArg(args, 1, "CONSUMERS", 3),
        perProducer = ExampleMain.intArg(args, 2, "ITEMS_PER_PRODUCER", 100000),
        capacity = ExampleMain.intArg(args, 3, "CAPACITY", 16)
      )
    }
}
