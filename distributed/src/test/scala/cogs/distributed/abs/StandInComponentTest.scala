package cogs.distributed.abs

import cogs.runtime.{CogRuntime, Resource, SimTime}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/**
 * The resources a deployment component's creation carries to the node of a stand-in
 * (`AbsPlacement.resourcesText` and `parseResources`, see docs/distributed.md "Deployment
 * components across nodes"): whole and rational amounts come back exactly, unlimited resources
 * stay unlimited, and a malformed text is an error, not a component with other resources.
 */
class StandInComponentTest {
  @Test def resourcesTravelExactly(): Unit = {
    val rt = CogRuntime()
    try {
      val dc = rt.deploymentComponent("D", Map(Resource.Speed -> SimTime.of(5), Resource.Cores -> SimTime.of(3, 2),
        Resource.Memory -> SimTime.of(1, 3)))
      val text = AbsPlacement.resourcesText(dc)
      assertEquals("Speed=5;Cores=3/2;Memory=1/3", text)
      val back = AbsPlacement.parseResources(text)
      assertEquals(Map(Resource.Speed -> SimTime.of(5), Resource.Cores -> SimTime.of(3, 2), Resource.Memory -> SimTime.of(1, 3)), back)
      assertFalse(back.contains(Resource.Bandwidth))
      // A component without limits travels as nothing, and comes back without limits.
      assertEquals("", AbsPlacement.resourcesText(rt.deploymentComponent("U", Map.empty)))
      assertEquals(Map.empty, AbsPlacement.parseResources(""))
    } finally rt.close()
  }

  @Test def malformedTextIsAnError(): Unit = {
    assertThrows(classOf[IllegalArgumentException], () => AbsPlacement.parseResources("Speed=1/2/3"))
    assertThrows(classOf[IllegalArgumentException], () => AbsPlacement.parseResources("Power=4"))
  }
}
