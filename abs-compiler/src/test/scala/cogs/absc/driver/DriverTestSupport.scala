package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import cogs.absc.emit.{EmittedFile, EmittedProgram}

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.concurrent.atomic.AtomicInteger

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.lib.Out

/** What one absc invocation printed and returned. */
final case class AbscResult(status: Int, out: String, err: String, programOut: String)

/**
 * A back end that stands in for the type checker and the emitter: the program of a file is a
 * hand-written Scala translation chosen by the file's base name (`hello.abs` -> `programs("hello")`).
 * It counts emissions, so the tests can tell a cache hit from a compilation.
 */
final class FakeBackend(programs: Map[String, EmittedProgram], warnings: List[Diagnostic] = Nil) extends Backend {
  type Checked = List[CompilationUnit]
  val emitted = new AtomicInteger

  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (Checked, List[Diagnostic])] =
    Right((units, warnings))

  def emit(units: Checked, mainModule: Option[String]): Either[List[Diagnostic], EmittedProgram] = {
    emitted.incrementAndGet()
    val name = java.nio.file.Paths.get(units.head.file).getFileName.toString.stripSuffix(".abs")
    Right(programs.getOrElse(name, throw new IllegalArgumentException(s"no fake program for $name")))
  }
}

object DriverTestSupport {

  /** Parses as ABS; the fake back end ignores the content. */
  val AbsText = "module Fake;\n{\n  skip;\n}\n"

  def tempDir(prefix: String): Path = Files.createTempDirectory(prefix)

  /** Writes `name.abs` with `text` under `dir`; returns its path as a string. */
  def absFile(dir: Path, name: String, text: String = AbsText): String = {
    val f = dir.resolve(s"$name.abs")
    Files.writeString(f, text, UTF_8)
    f.toString
  }

  /** Runs `absc args` in this JVM, capturing absc's streams and the program's output. */
  def absc(backend: Backend, args: String*): AbscResult = {
    val out = new ByteArrayOutputStream
    val err = new ByteArrayOutputStream
    val outS = new PrintStream(out, true, UTF_8)
    val errS = new PrintStream(err, true, UTF_8)
    var status = -1
    val programOut = Out.capture {
      status = Main.run(args.toArray, outS, errS, backend, _ => None)
    }
    AbscResult(status, out.toString(UTF_8), err.toString(UTF_8), programOut)
  }

  /** A one-file program with main object `pkg.Main` whose main calls `mainCall`. */
  def program(pkg: String, body: String): EmittedProgram =
    EmittedProgram(List(EmittedFile(s"$pkg/Main.scala", s"package $pkg\n\n$body\n")), Some(s"$pkg.Main"))

  private def withMain(pkg: String, defs: String, mainCall: String): EmittedProgram =
    program(pkg,
      s"""import cogs.runtime._
         |import cogs.absc.lib.Out
         |
         |$defs
         |
         |object Main {
         |  def main(args: Array[String]): Unit =
         |    $mainCall
         |}""".stripMargin)

  private val Greeter =
    """trait Greeter extends Active { def greet(n: Int): Proc[Int] }
      |final class GreeterImpl extends ActiveObject with Greeter {
      |  def greet(n: Int): Proc[Int] = Proc.delay { Out.println(s"hello $n"); n * 2 }
      |}""".stripMargin

  /** Prints "hello 21" from another COG, then "result 42" and the program's arguments. */
  val hello: EmittedProgram = withMain("hello", Greeter,
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => {
      |      val g: Greeter = Cogs.spawn(new GreeterImpl)
      |      val f = g ! (_.greet(21))
      |      Proc.await(f).map { v => Out.println(s"result $v"); Out.println("args " + args.mkString(",")) }
      |    })""".stripMargin)

  /** Prints, then fails an ABS assert in the main block. */
  val failedAssert: EmittedProgram = withMain("failedassert", "",
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => Proc.delay {
      |      Out.println("before")
      |      throw cogs.absc.lib.AssertionFailException("x.abs:3: assert False")
      |    })""".stripMargin)

  /** A JVM exception from a method of another object, observed by the main block's get. */
  val jvmException: EmittedProgram = withMain("jvmexception",
    """trait Bomb extends Active { def explode(): Proc[Int] }
      |final class BombImpl extends ActiveObject with Bomb {
      |  def explode(): Proc[Int] = Proc.delay { throw new IllegalStateException("boom") }
      |}""".stripMargin,
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => {
      |      val b: Bomb = Cogs.spawn(new BombImpl)
      |      Proc.get(b.send("explode")(_.explode())).void
      |    })""".stripMargin)

  /** The main block awaits a condition nothing makes true. */
  val deadlock: EmittedProgram = withMain("deadlock",
    """trait Waiter extends Active { def waitForever(): Proc[Unit] }
      |final class WaiterImpl extends ActiveObject with Waiter {
      |  private var ready = false
      |  def waitForever(): Proc[Unit] = Proc.awaitUntil(ready)
      |}""".stripMargin,
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => {
      |      val w: Waiter = Cogs.spawn(new WaiterImpl)
      |      Proc.get(w.send("waitForever")(_.waitForever()))
      |    })""".stripMargin)

  def testResult(pkg: String, value: Boolean): EmittedProgram = withMain(pkg, "",
    s"""cogs.absc.run.ProgramRunner.runTest(args, (rt: CogRuntime) => Proc.delay {
       |      Out.println("testing $pkg")
       |      $value
       |    })""".stripMargin)

  /** Sleeps on a worker for `millis` (for timeouts). */
  def sleeper(millis: Long): EmittedProgram = withMain("sleeper", "",
    s"""cogs.absc.run.ProgramRunner.runTest(args, (rt: CogRuntime) => Proc.delay { Thread.sleep(${millis}L); true })""")

  /** Scala that does not compile: line 4 of sad/Main.scala has a type error. */
  val scalacError: EmittedProgram = program("sad",
    """object Main {
      |  def main(args: Array[String]): Unit = {
      |    val n: Int = "not a number"
      |  }
      |}""".stripMargin)

  /** Prints the runtime the program runs on (its parallelism). */
  val runtimeInfo: EmittedProgram = withMain("runtimeinfo", "",
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => Proc.delay { Out.println(rt.toString) })""")

  /** The JVM runs out of memory in the main block (thrown by hand: a test cannot exhaust its own heap). */
  val outOfMemory: EmittedProgram = withMain("outofmemory", "",
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => Proc.delay {
      |      Out.println("before")
      |      throw new OutOfMemoryError("Java heap space")
      |    })""".stripMargin)

  /** A stack overflow in the main block. */
  val stackOverflow: EmittedProgram = withMain("stackoverflow", "",
    """cogs.absc.run.ProgramRunner.runMain(args, (rt: CogRuntime) => Proc.delay {
      |      def down(n: Int): Int = if (n == 0) 0 else 1 + down(n - 1)
      |      Out.println(down(Int.MaxValue).toString)
      |    })""".stripMargin)

  /** No main block. */
  val library: EmittedProgram = EmittedProgram(List(EmittedFile("lib/Lib.scala", "package lib\nobject Lib { val x = 1 }\n")), None)

  val programs: Map[String, EmittedProgram] = Map(
    "hello" -> hello,
    "failedassert" -> failedAssert,
    "jvmexception" -> jvmException,
    "deadlock" -> deadlock,
    "outofmemory" -> outOfMemory,
    "stackoverflow" -> stackOverflow,
    "pass" -> testResult("pass", value = true),
    "pass2" -> testResult("pass2", value = true),
    "fail" -> testResult("fail", value = false),
    "sleeper" -> sleeper(3000),
    "sad" -> scalacError,
    "library" -> library,
    "runtimeinfo" -> runtimeInfo
  )
}
