package cogs.runtime

import java.util.logging.{Handler, Level, LogRecord, Logger}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.collection.mutable.ArrayBuffer

/**
 * Issue 14, point 5: the runtime logs through System.Logger (here routed to java.util.logging,
 * the JDK's default), at the levels CogRuntime.Log documents, and a failed process is not logged.
 */
class LoggingTest {
  private def captured(body: => Unit): List[LogRecord] = {
    val records = ArrayBuffer.empty[LogRecord]
    val h = new Handler {
      def publish(r: LogRecord): Unit = records.synchronized { records += r; () }
      def flush(): Unit = ()
      def close(): Unit = ()
    }
    val jul = Logger.getLogger("cogs.runtime")
    jul.addHandler(h)
    try body
    finally jul.removeHandler(h)
    records.synchronized(records.toList)
  }

  @Test def fatalErrorsAreErrorsCallbacksThatThrowAreWarningsFailuresAreNotLogged(): Unit = {
    val rt = CogRuntime.withOverrides("cogs.executor.parallelism = 1\ncogs.on-fatal-error = continue")
    try {
      import ThrowableKindsTest._
      val t = rt.spawn(new TImpl)
      val plain = captured {
        val f = t.send("interrupted")(_.interrupted())
        assertThrows(classOf[CallFailedException], () => f.join(): Unit)
      }
      assertEquals(Nil, plain.map(_.getMessage), "an ordinary failure is data, not a log line")

      val fatal = captured {
        val f = t.send("oom")(_.oom())
        assertThrows(classOf[CallFailedException], () => f.join(): Unit)
        rt.awaitQuiescence()
      }
      assertTrue(fatal.exists(r => r.getLevel == Level.SEVERE && r.getMessage.contains("T.oom failed with a fatal error")),
        fatal.map(r => s"${r.getLevel} ${r.getMessage}").toString)
      assertTrue(fatal.exists(r => r.getLevel == Level.SEVERE && (r.getThrown ne null) && r.getThrown.isInstanceOf[OutOfMemoryError]))
      assertTrue(fatal.exists(r => r.getLevel == Level.WARNING && r.getMessage.contains("goes on")))

      val callback = captured {
        val latch = rt.spawn(new TestObjects.LatchImpl)
        val f = latch.send("waitOpen")(_.waitOpen()) // pending until open: the callback runs on the worker
        f.onComplete(_ => throw new IllegalStateException("callback bug"))
        latch.send("open")(_.open(5)).join()
        assertEquals(5, f.join())
        // One worker: this runs after the slice that resolved f, its callback and its log line.
        assertEquals(1, t.send("ok")(_.ok()).join(), "the COG that ran the callback goes on")
      }
      assertTrue(callback.exists(r => r.getLevel == Level.WARNING && r.getMessage.contains("onComplete callback threw")),
        callback.map(r => s"${r.getLevel} ${r.getMessage}").toString)
    } finally rt.close()
  }
}
