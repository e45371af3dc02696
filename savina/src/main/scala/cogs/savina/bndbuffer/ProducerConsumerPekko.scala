package cogs.savina.bndbuffer

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.bndbuffer.ProducerConsumer.{mix, processItem, Item}
import java.util.ArrayDeque
import java.util.concurrent.atomic.AtomicLong
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * Producer-consumer on Pekko with Savina's protocol: a manager forwards items to available
 * consumers or keeps them, tells a producer to produce again unless it holds too many items,
 * and stops everyone when all producers finished and all consumers are idle. Consumers add what
 * they saw to shared counters when they stop (the check).
 */
object ProducerConsumerPekko {

  private final class Data(val item: Item, val producer: ActorRef)
  private case object Produce
  private final class ConsumerAvailable(val consumer: ActorRef)
  private case object ProducerExit
  private case object ConsumerExit

  def run(system: ActorSystem, p: Params): Consumed = {
    val run = new PekkoRun[Consumed](system, ProducerConsumer.name)
    val items = new AtomicLong
    val digest = new AtomicLong
    run.actorOf(Props(new Manager(run, p, items, digest)))
    run.awaitStopped()
    Consumed(items.get, digest.get)
  }

  private final class Manager(run: PekkoRun[Consumed], p: Params, items: AtomicLong, digest: AtomicLong) extends BenchActor(run) {
    private[this] val idleProducers = new ArrayDeque[ActorRef]
    private[this] val idleConsumers = new ArrayDeque[ActorRef]
    private[this] val pending = new ArrayDeque[Data]
    private[this] var finishedProducers = 0
    private[this] val consumers = Array.fill(p.consumers)(run.actorOf(Props(new ConsumerActor(run, p, self, items, digest))))
    private[this] val producers = Array.tabulate(p.producers)(i => run.actorOf(Props(new ProducerActor(run, i, p, self))))

    consumers.foreach(idleConsumers.addLast)
    producers.foreach(_ ! Produce)

    def receive: Receive = {
      case d: Data =>
        if (idleConsumers.isEmpty) pending.addLast(d) else idleConsumers.pollFirst() ! d
        if (pending.size >= p.capacity) idleProducers.addLast(d.producer) else d.producer ! Produce
      case c: ConsumerAvailable =>
        if (pending.isEmpty) { idleConsumers.addLast(c.consumer); tryExit() }
        else {
          c.consumer ! pending.pollFirst()
          if (!idleProducers.isEmpty) idleProducers.pollFirst() ! Produce
        }
      case ProducerExit =>
        finishedProducers += 1
        tryExit()
    }

    private def tryExit(): Unit =
      if (finishedProducers == p.producers && idleConsumers.size == p.consumers) {
        consumers.foreach(_ ! ConsumerExit)
        exit()
      }
  }

  private final class ProducerActor(run: PekkoRun[Consumed], id: Int, p: Params, manager: ActorRef) extends BenchActor(run) {
    private[this] var value = 0.0
    private[this] var produced = 0

    def receive: Receive = {
      case Produce =>
        if (produced == p.itemsPerProducer) { manager ! ProducerExit; exit() }
        else {
          value = processItem(value, p.produceCost)
          manager ! new Data(new Item(id, produced, value), self)
          produced += 1
        }
    }
  }

  private final class ConsumerActor(run: PekkoRun[Consumed], p: Params, manager: ActorRef, items: AtomicLong, digest: AtomicLong)
      extends BenchActor(run) {
    private[this] var state = 0.0
    private[this] var count = 0L
    private[this] var sum = 0L
    private[this] val available = new ConsumerAvailable(self)

    def receive: Receive = {
      case d: Data =>
        val it = d.item
        state = processItem(state + it.value, p.consumeCost)
        count += 1
        sum += mix(it.producer, it.seq, it.value)
        manager ! available
      case ConsumerExit =>
        items.addAndGet(count)
        digest.addAndGet(sum)
        exit()
    }
  }
}
