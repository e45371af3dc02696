package cogs.absc.run

import java.nio.file.{Files, Path}

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.JsonNodeFactory

import cogs.absc.lib.AbsTime
import cogs.runtime.ScheduleTrace

/**
 * A recording in the trace format of the reference toolchain's Erlang backend (what its `--record`
 * writes and its Model API's `/trace` answers), for the tools written for that backend:
 *
 * {{{
 * [ { "node": [0], "local_trace": [ { "type": "schedule", "caller_id": [], "local_id": 0, "name": "m_main",
 *                                     "reads": [], "writes": [], "time": 0.0 }, ... ] },
 *   { "node": [0, 1], "local_trace": [ ... ] } ]
 * }}}
 *
 * One entry per COG, named as the Erlang backend names COGs: the list of creation indexes from
 * the first COG down, each from 0 (our `x1.2` is `[0, 1]`). Each slice the COG ran is a `schedule`
 * event: `caller_id` is the sending COG (`[]`: from outside the model's processes, such as the main
 * block's start or a Model API call), `local_id` the sender's count of calls from 0, `name` the
 * method as the Erlang backend names its functions (`m_deposit`), `time` the simulated time of the
 * slice. Only `schedule` events: the Erlang backend also writes invocations, object creations,
 * future reads and resource events, which Cogs does not record (its replay reads only `schedule`
 * and resource events, and we write no resource events).
 */
private[absc] object ErlangTrace {
  private val nodes = JsonNodeFactory.instance

  def json(steps: Map[String, List[ScheduleTrace.Step]]): JsonNode = {
    val out = nodes.arrayNode()
    steps.toList.map { case (cog, ss) => (cogPath(cog), ss) }.sortBy(_._1)(Ordering.Implicits.seqOrdering[List, Int]).foreach { case (path, ss) =>
      val local = nodes.arrayNode()
      ss.foreach { s =>
        val (caller, n) = callOrigin(s.call)
        val e = nodes.objectNode()
        e.put("type", "schedule")
        e.set[JsonNode]("caller_id", ints(caller))
        e.put("local_id", n)
        e.put("name", "m_" + s.method.substring(s.method.lastIndexOf('.') + 1))
        e.set[JsonNode]("reads", nodes.arrayNode())
        e.set[JsonNode]("writes", nodes.arrayNode())
        e.put("time", AbsTime.fromSim(s.time).toDouble)
        local.add(e)
      }
      val entry = nodes.objectNode()
      entry.set[JsonNode]("node", ints(path))
      entry.set[JsonNode]("local_trace", local)
      out.add(entry)
    }
    out
  }

  def write(file: Path, steps: Map[String, List[ScheduleTrace.Step]]): Unit = {
    Option(file.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
    Files.write(file, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(json(steps)))
  }

  /** `x1.2.1` to `[0, 1, 0]`. */
  private[run] def cogPath(cog: String): List[Int] =
    cog.stripPrefix("x").split('.').toList.map(_.toInt - 1)

  /** `x1.2#7` to (`[0, 1]`, 6); `x#3` (from outside) to (`[]`, 2). */
  private[run] def callOrigin(call: String): (List[Int], Long) = {
    val i = call.lastIndexOf('#')
    val sender = call.substring(0, i)
    (if (sender == "x") Nil else cogPath(sender), call.substring(i + 1).toLong - 1)
  }

  private def ints(xs: List[Int]): JsonNode = { val a = nodes.arrayNode(); xs.foreach(a.add); a }
}
