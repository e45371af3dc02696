package cogs.savina.filterbank

import cogs.runtime._
import cogs.savina.{Sink, SinkImpl}
import cogs.savina.filterbank.FilterBank.{DelayLine, Fir, Sampler}

/**
 * FilterBank on Cogs: every Savina actor is an object in a COG of its own. The producer's loop
 * awaits `source ! boot()` once per sample: the source passes the sample on and returns, and
 * that future is Savina's "next" message, so producer and source stay in lock step as in Savina.
 * Everything downstream is a pipeline of one-way calls (`tell`, no futures); a stage sees its
 * values in order because a COG runs the calls of one sender in the order they were sent (the
 * filters need it). The end marker follows the values; the integrator passes it on once every
 * bank's marker came, and the sink then hands the answer to the main block.
 */
object FilterBankCogs {

  /** A stage of a bank's pipeline, and the splitter and the banks themselves. */
  trait Stage extends Active {
    def value(v: Double): Proc[Unit]
    def finish(): Proc[Unit]
  }

  trait Source extends Active {
    /** Emit the next sample. */
    def boot(): Proc[Unit]
    def finish(): Proc[Unit]
  }

  trait Integrator extends Active {
    def value(bank: Int, v: Double): Proc[Unit]
    def finish(): Proc[Unit]
  }

  trait Combine extends Active {
    def row(values: Array[Double]): Proc[Unit]
    def finish(): Proc[Unit]
  }

  trait Producer extends Active {
    def produce(source: Source, samples: Int): Proc[Unit]
  }

  final class ProducerImpl extends ActiveObject with Producer {
    def produce(source: Source, samples: Int): Proc[Unit] =
      Proc.repeat(samples)(_ => Proc.await(source.send("boot")(_.boot())))
        .map(_ => { source.tell("finish")(_.finish()); () })
  }

  final class SourceImpl(next: Stage) extends ActiveObject with Source {
    private[this] var i = 0

    def boot(): Proc[Unit] = {
      val v = FilterBank.sample(i)
      i += 1
      next.tell("value")(_.value(v))
      Proc.unit
    }

    def finish(): Proc[Unit] = { next.tell("finish")(_.finish()); Proc.unit }
  }

  final class BranchesImpl(banks: Array[Stage]) extends ActiveObject with Stage {
    def value(v: Double): Proc[Unit] = { banks.foreach(_.tell("value")(_.value(v))); Proc.unit }
    def finish(): Proc[Unit] = { banks.foreach(_.tell("finish")(_.finish())); Proc.unit }
  }

  /** A bank forwards to the first of its six stages, as Savina's bank actor does. */
  final class BankImpl(p: Params, c: Int, integrator: Integrator) extends ActiveObject with Stage {
    private[this] val first: Stage = {
      val tag = Cogs.spawn(new TagImpl(c, integrator))
      val fir2 = Cogs.spawn(new FirImpl(FilterBank.f(p, c), tag))
      val delay2 = Cogs.spawn(new DelayImpl(p.columns - 1, fir2))
      val sampler = Cogs.spawn(new SamplerImpl(p.columns, delay2))
      val fir1 = Cogs.spawn(new FirImpl(FilterBank.h(p, c), sampler))
      Cogs.spawn(new DelayImpl(p.columns - 1, fir1))
    }

    def value(v: Double): Proc[Unit] = { first.tell("value")(_.value(v)); Proc.unit }
    def finish(): Proc[Unit] = { first.tell("finish")(_.finish()); Proc.unit }
  }

  final class DelayImpl(length: Int, next: Stage) extends ActiveObject with Stage {
    private[this] val line = new DelayLine(length)

    def value(v: Double): Proc[Unit] = {
      val out = line.shift(v)
      next.tell("value")(_.value(out))
      Proc.unit
    }
    def finish(): Proc[Unit] = { next.tell("finish")(_.finish()); Proc.unit }
  }

  final class FirImpl(coefficients: Array[Double], next: Stage) extends ActiveObject with Stage {
    private[this] val fir = new Fir(coefficients)

    def value(v: Double): Proc[Unit] = {
      if (fir.push(v)) { val out = fir.output; next.tell("value")(_.value(out)) }
      Proc.unit
    }
    def finish(): Proc[Unit] = { next.tell("finish")(_.finish()); Proc.unit }
  }

  final class SamplerImpl(rate: Int, next: Stage) extends ActiveObject with Stage {
    private[this] val sampler = new Sampler(rate)

    def value(v: Double): Proc[Unit] = {
      val out = sampler.pass(v)
      next.tell("value")(_.value(out))
      Proc.unit
    }
    def finish(): Proc[Unit] = { next.tell("finish")(_.finish()); Proc.unit }
  }

  /** Savina's tagged forward: the last stage of a bank, naming the bank to the integrator. */
  final class TagImpl(c: Int, integrator: Integrator) extends ActiveObject with Stage {
    def value(v: Double): Proc[Unit] = { integrator.tell("value")(_.value(c, v)); Proc.unit }
    def finish(): Proc[Unit] = { integrator.tell("finish")(_.finish()); Proc.unit }
  }

  final class IntegratorImpl(channels: Int, combine: Combine) extends ActiveObject with Integrator {
    private[this] val rows = new FilterBank.Integrator(channels)
    private[this] var finished = 0

    def value(bank: Int, v: Double): Proc[Unit] = {
      val row = rows.add(bank, v)
      if (row ne null) combine.tell("row")(_.row(row))
      Proc.unit
    }

    def finish(): Proc[Unit] = {
      finished += 1
      if (finished == channels) combine.tell("finish")(_.finish())
      Proc.unit
    }
  }

  final class CombineImpl(sink: FilterSink) extends ActiveObject with Combine {
    def row(values: Array[Double]): Proc[Unit] = {
      val sum = FilterBank.combine(values)
      sink.tell("value")(_.value(sum))
      Proc.unit
    }
    def finish(): Proc[Unit] = { sink.tell("finish")(_.finish()); Proc.unit }
  }

  /** Savina's sink (named so as not to clash with the main block's [[Sink]]). */
  trait FilterSink extends Active {
    def value(v: Double): Proc[Unit]
    def finish(): Proc[Unit]
  }

  final class FilterSinkImpl(answer: Sink[Output]) extends ActiveObject with FilterSink {
    private[this] val tally = new FilterBank.Tally

    def value(v: Double): Proc[Unit] = { tally.add(v); Proc.unit }
    def finish(): Proc[Unit] = { val out = tally.output; answer.tell("deliver")(_.deliver(out)); Proc.unit }
  }

  def run(rt: CogRuntime, p: Params): Output =
    rt.run {
      val answer = Cogs.spawnLocal(new SinkImpl[Output])
      val sink: FilterSink = Cogs.spawn(new FilterSinkImpl(answer))
      val combine: Combine = Cogs.spawn(new CombineImpl(sink))
      val integrator: Integrator = Cogs.spawn(new IntegratorImpl(p.channels, combine))
      val banks: Array[Stage] = Array.tabulate(p.channels)(c => Cogs.spawn(new BankImpl(p, c, integrator)))
      val branches: Stage = Cogs.spawn(new BranchesImpl(banks))
      val source: Source = Cogs.spawn(new SourceImpl(branches))
      val producer: Producer = Cogs.spawn(new ProducerImpl)
      producer.tell("produce")(_.produce(source, p.simulations))
      answer.result
    }
}
