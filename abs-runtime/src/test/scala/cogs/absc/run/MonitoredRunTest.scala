package cogs.absc.run

import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.lib.Output
import cogs.runtime.{CogRuntime, Proc}

/**
 * Issue 27, item 4: monitoring and session checking are the module cogs-abs-monitoring, which this
 * module's tests do not have. A program compiled with a monitor configuration, run without the
 * module, ends before its main block with exit status 2 and says what is missing; the same runner
 * without a configuration does not look for the module at all.
 */
class MonitoredRunTest {
  private def run(monitor: String): (ProgramRunner.Outcome, String, Boolean) = {
    val err = new ByteArrayOutputStream
    val s = new ProgramRunner.Session(verbose = false, new PrintStream(err, true, UTF_8),
      new Output(new ByteArrayOutputStream, autoFlush = false, intervalNanos = 0L))
    @volatile var ran = false
    ProgramRunner.withSession(s) {
      ProgramRunner.runTest(Array.empty, (_: CogRuntime) => Proc.delay { ran = true; true }, monitor)
    }
    (s.outcome, err.toString(UTF_8), ran)
  }

  @Test def aMonitoredProgramWithoutTheModuleSaysWhatIsMissing(): Unit = {
    assertTrue(MonitoredRun.provider(getClass.getClassLoader).isLeft, "this module's tests must not have cogs-abs-monitoring")
    val (outcome, err, ran) = run("cogs.monitor { }")
    assertEquals(ProgramRunner.ExitUsage, outcome.status, err)
    assertFalse(ran, "the main block must not run unmonitored")
    assertTrue(err.startsWith("absc: this program was compiled with a monitor configuration (--monitor) and needs the module cogs-abs-monitoring"), err)
  }

  @Test def anUnmonitoredProgramDoesNotNeedIt(): Unit = {
    val (outcome, err, ran) = run(null)
    assertEquals(ProgramRunner.ExitOk, outcome.status, err)
    assertTrue(ran)
  }
}
