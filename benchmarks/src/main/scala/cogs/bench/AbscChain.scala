package cogs.bench

import java.lang.reflect.Method
import java.net.{URL, URLClassLoader}
import java.nio.file.{Files, Path, Paths}

import cogs.absc.lib.AbsInt
import cogs.runtime.{ActiveObject, Cogs, CogRuntime, Proc}

/**
 * AwaitChainBench's `absc` variant: Listing 5 as absc compiles it, from `benchmarks/abs/AwaitChain.abs`
 * (Listing 1's class A, and its main block's loop as the method `Driver.calls`). The model is
 * compiled beforehand (`absc package`, see the benchmarks README) and its classes, a jar or a
 * directory, named by the system property `cogs.bench.absc.classes`; without it the variant is skipped.
 *
 * The generated classes are loaded by a class loader whose parent is the benchmark's, so the runtime
 * and absc's library are the benchmark's own. One run is one reflective call of `Driver.calls`
 * (the N sends, the six-frame chains, the N `get`s are all absc's code), started from the main
 * block's process as a synchronous call to the driver's COG; the object `A` is created before
 * the clock, as in the `cogs` variant.
 */
final class AbscChain(n: Int, classes: Path) extends Workload {
  private val rt = CogRuntime()
  private val loader = new URLClassLoader(Array[URL](classes.toUri.toURL), classOf[AbscChain].getClassLoader)
  private val aClass = loader.loadClass("absmodel.AwaitChain$A")
  private val aInterface = loader.loadClass("absmodel.AwaitChain$Ainterface")
  private val driverClass = loader.loadClass("absmodel.AwaitChain$DriverImpl")
  private val calls: Method = driverClass.getMethod("calls", aInterface, classOf[AbsInt])
  private val counter: Method = aInterface.getMethod("counter")
  private var master: ActiveObject = _
  private var driver: ActiveObject = _
  private var sum = 0L

  override def prepare(): Unit = {
    master = rt.spawn(aClass.getConstructor().newInstance().asInstanceOf[ActiveObject])
    driver = rt.spawn(driverClass.getConstructor().newInstance().asInstanceOf[ActiveObject])
  }

  override def run(): Long = {
    val (d, m, count) = (driver, master, AbsInt(n))
    sum = rt.run(Proc.sync(d, "calls")((o: ActiveObject) => calls.invoke(o, m, count).asInstanceOf[Proc[AbsInt]])).toLong
    sum
  }

  override def check(): Unit = {
    Workload.expect("absc: sum of the calls' results", n, sum)
    val c = Cogs.send(master, "counter", (o: ActiveObject) => counter.invoke(o).asInstanceOf[Proc[AbsInt]]).join()
    Workload.expect("absc: counter", n, c.toLong)
  }

  override def close(): Unit = {
    rt.close()
    loader.close()
  }
}

object AbscChain {
  val ClassesProperty = "cogs.bench.absc.classes"

  /** The variant with the compiled model's classes, or [[Skipped]] saying how to make them. */
  def apply(n: Int): AbscChain =
    Option(System.getProperty(ClassesProperty)).map(Paths.get(_)) match {
      case Some(c) if Files.exists(c) => new AbscChain(n, c)
      case Some(c) => throw new Skipped(s"absc: $ClassesProperty names $c, which does not exist")
      case None => throw new Skipped(s"absc needs the compiled model: ./absc package -o target/absc-awaitchain " +
        s"benchmarks/abs/AwaitChain.abs, then -D$ClassesProperty=target/absc-awaitchain/lib/awaitchain.jar")
    }
}
