package cogs.async

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test}

import cogs.async.ProcAsync.{async, await}
import cogs.runtime._

/** A fatal error inside `async` is not turned into an ABS failure that a handler could catch. */
class ProcAsyncFatalTest {
  import ProcAsyncFatalTest._

  private val rt = CogRuntime.withOverrides("cogs.on-fatal-error = continue")
  @AfterEach def close(): Unit = rt.close()

  @Test def aFatalErrorAfterAnAwaitSkipsTheProcessesHandlers(): Unit = {
    val t = rt.spawn(new TImpl)
    val e = assertThrows(classOf[CallFailedException], () => t.send("oomCaught")(_.oomCaught()).join(): Unit)
    assertTrue(e.getCause.isInstanceOf[OutOfMemoryError], e.toString)
    // An ordinary exception at the same place is caught by the same handler.
    assertEquals(-1, t.send("iaeCaught")(_.iaeCaught()).join())
  }
}

object ProcAsyncFatalTest {
  trait T extends Active {
    def one(): Proc[Int]
    def oomCaught(): Proc[Int]
    def iaeCaught(): Proc[Int]
  }

  final class TImpl extends ActiveObject with T {
    def one(): Proc[Int] = Proc.done(1)

    private def failAfterAwait(e: => Throwable): Proc[Int] = async {
      val x = await(this.send("one")(_.one()))
      if (x == 1) throw e
      x
    }

    def oomCaught(): Proc[Int] = failAfterAwait(new OutOfMemoryError("thrown inside async")).recover { case _: Throwable => -1 }
    def iaeCaught(): Proc[Int] = failAfterAwait(new IllegalArgumentException("thrown inside async")).recover { case _: Throwable => -1 }
  }
}
