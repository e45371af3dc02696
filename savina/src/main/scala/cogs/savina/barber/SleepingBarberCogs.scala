package cogs.savina.barber

import cogs.runtime._
import cogs.savina.{Rand, Sink, SinkImpl, Work}
import java.util.ArrayDeque

/**
 * Sleeping Barber on Cogs. The barber's life is a loop of `await room ! next()`; `next` awaits
 * the condition "a customer waits, or the shop closed" in the room's COG, so a sleeping barber is
 * a suspended process (Savina's version tracks "asleep" by hand and wakes the barber with
 * messages). A customer visits with `await room ! enter(me)`; turned away, it asks the factory
 * to send it again. The factory delivers the count of customers served to the main block's sink
 * once all were served, and closes the shop.
 */
object SleepingBarberCogs {

  trait Room extends Active {
    /** Take a chair; false if all are taken. */
    def enter(c: Customer): Proc[Boolean]
    /** For the barber: the next waiting customer, awaited; null once the shop is closed. */
    def next(): Proc[Customer]
    def close(): Proc[Unit]
  }

  trait Barber extends Active {
    /** Serve customers until the shop closes; the number served. */
    def work(room: Room): Proc[Long]
  }

  trait Customer extends Active {
    def visit(room: Room): Proc[Unit]
    def start(): Proc[Unit]
    def done(): Proc[Unit]
  }

  trait Factory extends Active {
    def produce(room: Room): Proc[Unit]
    def returned(c: Customer, room: Room): Proc[Unit]
    def served(): Proc[Unit]
  }

  final class RoomImpl(chairs: Int) extends ActiveObject with Room {
    private[this] val waiting = new ArrayDeque[Customer](chairs)
    private[this] var closed = false

    def enter(c: Customer): Proc[Boolean] =
      if (waiting.size == chairs) Proc.done(false)
      else { waiting.addLast(c); Proc.done(true) }

    def next(): Proc[Customer] =
      Proc.awaitUntil(!waiting.isEmpty || closed).map(_ => waiting.pollFirst()) // null when closed and empty

    def close(): Proc[Unit] = { closed = true; Proc.unit }
  }

  final class BarberImpl(p: Params) extends ActiveObject with Barber {
    private[this] val random = new Rand(7)
    private[this] var served = 0L
    private[this] var open = true

    def work(room: Room): Proc[Long] =
      Proc.loopWhile(open) {
        Proc.await(room.send("next")(_.next())).map { c =>
          if (c eq null) open = false
          else {
            c.tell("start")(_.start())
            Work.busyWait(random, random.nextInt(p.haircutRate) + 10)
            c.tell("done")(_.done())
            served += 1
          }
        }
      }.map(_ => served)
  }

  final class CustomerImpl(factory: Factory) extends ActiveObject with Customer {
    def visit(room: Room): Proc[Unit] =
      Proc.await(room.send("enter")(_.enter(this))).map { seated =>
        if (!seated) factory.tell("returned")(_.returned(this, room))
      }
    def start(): Proc[Unit] = Proc.unit
    def done(): Proc[Unit] = { factory.tell("served")(_.served()); Proc.unit }
  }

  final class FactoryImpl(p: Params, sink: Sink[Long]) extends ActiveObject with Factory {
    private[this] val random = new Rand(11)
    private[this] var served = 0L
    private[this] var attempts = 0L
    private[this] var room: Room = _

    def produce(room: Room): Proc[Unit] = {
      this.room = room
      var i = 0
      while (i < p.haircuts) {
        val c: Customer = Cogs.spawn(new CustomerImpl(this))
        attempts += 1
        c.tell("visit")(_.visit(room))
        Work.busyWait(random, random.nextInt(p.productionRate) + 10)
        i += 1
      }
      Proc.unit
    }

    def returned(c: Customer, room: Room): Proc[Unit] = {
      attempts += 1
      c.tell("visit")(_.visit(room))
      Proc.unit
    }

    def served(): Proc[Unit] = {
      served += 1
      if (served == p.haircuts) {
        room.tell("close")(_.close())
        val n = served
        sink.tell("deliver")(_.deliver(n))
      }
      Proc.unit
    }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val sink = Cogs.spawnLocal(new SinkImpl[Long])
      val room: Room = Cogs.spawn(new RoomImpl(p.waitingRoom))
      val barber: Barber = Cogs.spawn(new BarberImpl(p))
      val factory: Factory = Cogs.spawn(new FactoryImpl(p, sink))
      val work = barber.send("work")(_.work(room))
      factory.tell("produce")(_.produce(room))
      for {
        served <- sink.result
        cut <- Proc.await(work)
      } yield {
        if (cut != served) throw new IllegalStateException(s"the barber cut $cut heads but the factory saw $served customers served")
        served
      }
    }
}
