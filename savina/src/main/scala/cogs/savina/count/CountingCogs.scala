package cogs.savina.count

import cogs.runtime._

/** Counting on Cogs: `messages` one-way calls `counter.tell("increment")(_.increment())` (no futures), then `await counter ! total()`. */
object CountingCogs {

  trait Counter extends Active {
    def increment(): Proc[Unit]
    def total(): Proc[Long]
  }

  trait Producer extends Active {
    def produce(counter: Counter, n: Int): Proc[Long]
  }

  final class CounterImpl extends ActiveObject with Counter {
    private[this] var count = 0L
    def increment(): Proc[Unit] = { count += 1; Proc.unit }
    def total(): Proc[Long] = Proc.done(count)
  }

  final class ProducerImpl extends ActiveObject with Producer {
    def produce(counter: Counter, n: Int): Proc[Long] = {
      var i = 0
      while (i < n) {
        counter.tell("increment")(_.increment())
        i += 1
      }
      Proc.await(counter.send("total")(_.total()))
    }
  }

  def run(rt: CogRuntime, p: Params): Long =
    rt.run {
      val counter: Counter = Cogs.spawn(new CounterImpl)
      val producer: Producer = Cogs.spawn(new ProducerImpl)
      Proc.await(producer.send("produce")(_.produce(counter, p.messages)))
    }
}
