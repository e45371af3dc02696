package cogs.bench

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Paths}

import cogs.absc.driver.{AbsBackend, CachePolicy, Driver, SourceFile}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * AwaitChainBench's `absc` variant on what absc makes of `abs/AwaitChain.abs` now: the right
 * results at a small N, twice in a row, on one object per run; and a clear skip without the model.
 */
class AbscChainTest {

  @Test def absGeneratedChainsReturnOneEachAndComputeOncePerCall(): Unit = {
    val file = Paths.get("abs", "AwaitChain.abs")
    val src = SourceFile(file.toString, new String(Files.readAllBytes(file), UTF_8))
    val built = new Driver(AbsBackend, System.err, verbose = false).build(List(src), CachePolicy.NoCache, None)
      .fold(f => fail[Driver#Built](s"absc: ${f.reason}"), b => b)
    try {
      val n = 300
      val w = new AbscChain(n, built.program.classes)
      try {
        for (run <- 0 until 2) {
          w.prepare()
          assertEquals(n.toLong, w.run(), s"absc: sum of the results of run $run")
          w.check() // the counter is exactly n
        }
      } finally w.close()
    } finally built.close()
  }

  @Test def withoutTheModelTheVariantIsSkippedWithHowToMakeIt(): Unit = {
    val before = System.clearProperty(AbscChain.ClassesProperty)
    try {
      val s = assertThrows(classOf[Skipped], () => AwaitChainBench.workload("absc", 10))
      assertTrue(s.getMessage.contains("absc package"), s.getMessage)
    } finally if (before != null) System.setProperty(AbscChain.ClassesProperty, before)
  }
}
