package cogs.absc.driver

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import DriverTestSupport._

/** Where absc's library must look as the reference toolchain's does to a model (issue 32, item 3). */
class ReferenceLibraryTest {
  private val dir = tempDir("absc-reflib")

  @Test def anObjectPrintsItsAbsClassName(): Unit = {
    // the class shares its name with the interface, so its Scala class is `Philosopher$Class`
    val f = absFile(dir, "names",
      "module M;\ninterface Philosopher { }\nclass Philosopher implements Philosopher { }\n" +
        "{ Philosopher p = new Philosopher(); println(toString(p)); }\n")
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(0, r.status, r.err)
    assertTrue(r.programOut.matches("Philosopher#\\d+\n"), r.programOut)
  }

  @Test def aUserClassImplementsTheReferencesCloudProvider(): Unit = {
    // exactly the methods of the reference's CloudProvider interface (abslang.abs), no more
    val f = absFile(dir, "provider",
      """module M;
        |import * from ABS.DC;
        |class MyProvider implements CloudProvider {
        |  DeploymentComponent prelaunchInstance(Map<Resourcetype, Rat> d) { return null; }
        |  DeploymentComponent launchInstance(Map<Resourcetype, Rat> description) { return null; }
        |  Bool acquireInstance(DeploymentComponent instance) { return False; }
        |  Bool releaseInstance(DeploymentComponent instance) { return False; }
        |  Bool shutdownInstance(DeploymentComponent instance) { return False; }
        |  Rat getAccumulatedCost() { return 0; }
        |  Unit shutdown() { skip; }
        |  Unit setInstanceDescriptions(Map<String, Map<Resourcetype, Rat>> instanceDescriptions) { skip; }
        |  Unit addInstanceDescription(Pair<String, Map<Resourcetype, Rat>> instanceDescription) { skip; }
        |  Unit removeInstanceDescription(String instanceDescriptionName) { skip; }
        |  Map<String, Map<Resourcetype, Rat>> getInstanceDescriptions() { return map[]; }
        |  DeploymentComponent prelaunchInstanceNamed(String instancename) { return null; }
        |  DeploymentComponent launchInstanceNamed(String instancename) { return null; }
        |}
        |{ CloudProvider p = new MyProvider(); Rat c = await p!getAccumulatedCost(); println(toString(c)); }
        |""".stripMargin)
    val r = absc(AbsBackend, "run", "--no-cache", f)
    assertEquals(0, r.status, r.err)
    assertEquals("0\n", r.programOut)
  }
}
