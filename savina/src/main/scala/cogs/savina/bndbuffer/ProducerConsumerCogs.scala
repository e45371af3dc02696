package cogs.savina.bndbuffer

import cogs.runtime._
import cogs.savina.bndbuffer.ProducerConsumer.{mix, processItem, Item}
import java.util.ArrayDeque

/**
 * Producer-consumer on Cogs with the textbook ABS bounded buffer: `put` awaits "not full" and
 * `take` awaits "not empty (or everything taken)", conditions over the buffer's state, so
 * waiting producers and consumers are suspended processes in the buffer's COG (Savina's manager
 * keeps lists of idle producers and consumers by hand). Each producer's loop is `await buffer !
 * put(item)`; each consumer's is `await buffer ! take()`.
 */
object ProducerConsumerCogs {

  trait Buffer extends Active {
    def put(item: Item): Proc[Unit]
    /** The next item, awaited; null once all `total` items were taken. */
    def take(): Proc[Item]
  }

  trait Producer extends Active {
    def produce(buffer: Buffer): Proc[Unit]
  }

  trait Consumer extends Active {
    /** Consume until the buffer runs dry; (items, digest). */
    def consume(buffer: Buffer): Proc[(Long, Long)]
  }

  final class BufferImpl(capacity: Int, total: Long) extends ActiveObject with Buffer {
    private[this] val items = new ArrayDeque[Item](capacity)
    private[this] var taken = 0L

    def put(item: Item): Proc[Unit] =
      Proc.awaitUntil(items.size < capacity).map(_ => items.addLast(item))

    def take(): Proc[Item] =
      Proc.awaitUntil(!items.isEmpty || taken == total).map { _ =>
        val it = items.pollFirst()
        if (it ne null) taken += 1
        it
      }
  }

  final class ProducerImpl(id: Int, p: Params) extends ActiveObject with Producer {
    private[this] var value = 0.0

    def produce(buffer: Buffer): Proc[Unit] =
      Proc.repeat(p.itemsPerProducer) { k =>
        value = processItem(value, p.produceCost)
        val item = new Item(id, k, value)
        Proc.await(buffer.send("put")(_.put(item)))
      }
  }

  final class ConsumerImpl(p: Params) extends ActiveObject with Consumer {
    private[this] var state = 0.0
    private[this] var count = 0L
    private[this] var digest = 0L
    private[this] var more = true

    def consume(buffer: Buffer): Proc[(Long, Long)] =
      Proc.loopWhile(more) {
        Proc.await(buffer.send("take")(_.take())).map { item =>
          if (item eq null) more = false
          else {
            state = processItem(state + item.value, p.consumeCost)
            count += 1
            digest += mix(item.producer, item.seq, item.value)
          }
        }
      }.map(_ => (count, digest))
  }

  def run(rt: CogRuntime, p: Params): Consumed =
    rt.run {
      val buffer: Buffer = Cogs.spawn(new BufferImpl(p.capacity, p.producers.toLong * p.itemsPerProducer))
      val consumers = List.tabulate(p.consumers) { _ =>
        val c: Consumer = Cogs.spawn(new ConsumerImpl(p))
        c.send("consume")(_.consume(buffer))
      }
      val producers = List.tabulate(p.producers) { i =>
        val pr: Producer = Cogs.spawn(new ProducerImpl(i, p))
        pr.send("produce")(_.produce(buffer))
      }
      for {
        _ <- Proc.awaitAll(producers)
        seen <- Proc.awaitAll(consumers)
      } yield Consumed(seen.map(_._1).sum, seen.map(_._2).sum)
    }
}
