package cogs.absc.run

import java.nio.file.{Files, Path}

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.JsonNodeFactory

import cogs.absc.lib.AbsTime
import cogs.runtime.ScheduleTrace

import scala.jdk.CollectionConverters._

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
 * the first COG down, each from 0 (our `x1.2` is `[0, 1]`). Its events are the COG's
 * [[ScheduleTrace.Event]]s in order, with the Erlang backend's types: `schedule` (a slice of a
 * call), `invocation` (a call sent), `new_object`, `future_read` (`get`), `await_future`,
 * `suspend` and `future_write` (how a slice ended). A call is named by its sending COG
 * (`caller_id`, `[]` for calls from outside the model's processes, such as the main block's start
 * or a Model API call) and the sender's count of calls from 0 (`local_id`); a `new_object` by the
 * creating COG and its count of objects created, from 0. `name` is the method as the Erlang
 * backend names its functions (`m_deposit`), or the class (`class_Account`); `time` the simulated
 * time. `reads` and `writes` (the fields a slice read and wrote, which the Erlang backend's
 * explorer uses) are always empty: Cogs does not track them. The Erlang backend counts calls and
 * objects with one counter per COG; Cogs with two, so a `local_id` names a call or an object
 * within its kind only.
 *
 * [[read]] turns such a file back into the decisions a replay follows: each COG's `schedule`
 * events, checked by method name.
 */
private[absc] object ErlangTrace {
  private val nodes = JsonNodeFactory.instance

  def json(events: Map[String, List[ScheduleTrace.Event]]): JsonNode = {
    val out = nodes.arrayNode()
    events.toList.map { case (cog, es) => (cogPath(cog), es) }.sortBy(_._1)(Ordering.Implicits.seqOrdering[List, Int]).foreach { case (path, es) =>
      val local = nodes.arrayNode()
      es.foreach { ev =>
        val e = nodes.objectNode()
        e.put("type", ev.kind)
        if (ev.kind == ScheduleTrace.NewObject) {
          val (creator, n) = objectOrigin(ev.call)
          e.set[JsonNode]("caller_id", ints(creator))
          e.put("local_id", n)
          e.put("name", "class_" + ev.name)
        } else {
          val (caller, n) = callOrigin(ev.call)
          e.set[JsonNode]("caller_id", ints(caller))
          e.put("local_id", n)
          e.put("name", "m_" + ev.name.substring(ev.name.lastIndexOf('.') + 1))
        }
        e.set[JsonNode]("reads", nodes.arrayNode())
        e.set[JsonNode]("writes", nodes.arrayNode())
        e.put("time", AbsTime.fromSim(ev.time).toDouble)
        local.add(e)
      }
      val entry = nodes.objectNode()
      entry.set[JsonNode]("node", ints(path))
      entry.set[JsonNode]("local_trace", local)
      out.add(entry)
    }
    out
  }

  def write(file: Path, events: Map[String, List[ScheduleTrace.Event]]): Unit = {
    Option(file.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
    Files.write(file, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(json(events)))
  }

  /** Whether a trace file's JSON is in this format (a list of COGs) rather than absc's own (an object). */
  def isErlangFormat(root: JsonNode): Boolean = root.isArray

  /**
   * A trace in this format as a replay's decisions: per COG (`x1.2`), the calls of its `schedule`
   * events in order, and their method names (without the class, which the format does not have).
   * `damaged` makes the error for a file that is not such a trace, saying where.
   */
  def read(root: JsonNode, damaged: String => Exception): (Map[String, Seq[String]], Map[String, Seq[String]]) = {
    val decisions = Map.newBuilder[String, Seq[String]]
    val methods = Map.newBuilder[String, Seq[String]]
    root.elements().asScala.zipWithIndex.foreach { case (entry, i) =>
      val where = s"entry ${i + 1} of the list"
      val node = entry.get("node")
      val local = entry.get("local_trace")
      if (!entry.isObject || node == null || !node.isArray || local == null || !local.isArray)
        throw damaged(s"$where is not an object with 'node' (a list of numbers) and 'local_trace' (a list of events)")
      val path = node.elements().asScala.toList.map { n =>
        if (!n.canConvertToInt || n.asInt < 0) throw damaged(s"the 'node' of $where is not a list of numbers from 0")
        n.asInt
      }
      if (path.isEmpty) throw damaged(s"the 'node' of $where is empty")
      val calls = Vector.newBuilder[String]
      val names = Vector.newBuilder[String]
      local.elements().asScala.zipWithIndex.foreach { case (e, j) =>
        val at = s"event ${j + 1} of COG ${path.mkString("[", ", ", "]")}"
        val tpe = e.get("type")
        if (tpe == null || !tpe.isTextual) throw damaged(s"$at has no 'type'")
        if (tpe.asText == ScheduleTrace.Schedule) {
          val caller = e.get("caller_id")
          val lid = e.get("local_id")
          val name = e.get("name")
          if (caller == null || !caller.isArray || !caller.elements().asScala.forall(n => n.canConvertToInt && n.asInt >= 0))
            throw damaged(s"$at: 'caller_id' is not a list of numbers from 0")
          if (lid == null || !lid.canConvertToLong || lid.asLong < 0) throw damaged(s"$at: 'local_id' is not a number from 0")
          if (name == null || !name.isTextual) throw damaged(s"$at: 'name' is not a string")
          calls += callName(caller.elements().asScala.toList.map(_.asInt), lid.asLong)
          names += name.asText.stripPrefix("m_")
        }
      }
      val id = cogName(path)
      decisions += id -> calls.result()
      methods += id -> names.result()
    }
    (decisions.result(), methods.result())
  }

  /** `[0, 1, 0]` to `x1.2.1` (the inverse of cogPath). */
  private[run] def cogName(path: List[Int]): String = "x" + path.map(_ + 1).mkString(".")

  /** (`[0, 1]`, 6) to `x1.2#7`; (`[]`, 2) to `x#3` (the inverse of callOrigin). */
  private[run] def callName(caller: List[Int], n: Long): String =
    (if (caller.isEmpty) "x" else cogName(caller)) + "#" + (n + 1)

  /** `x1.2.1` to `[0, 1, 0]`. */
  private[run] def cogPath(cog: String): List[Int] =
    cog.stripPrefix("x").split('.').toList.map(_.toInt - 1)

  /** `x1.2@3` (the third object COG `x1.2` created) to (`[0, 1]`, 2). */
  private[run] def objectOrigin(name: String): (List[Int], Long) = {
    val i = name.lastIndexOf('@')
    (cogPath(name.substring(0, i)), name.substring(i + 1).toLong - 1)
  }

  /** `x1.2#7` to (`[0, 1]`, 6); `x#3` (from outside) to (`[]`, 2). */
  private[run] def callOrigin(call: String): (List[Int], Long) = {
    val i = call.lastIndexOf('#')
    val sender = call.substring(0, i)
    (if (sender == "x") Nil else cogPath(sender), call.substring(i + 1).toLong - 1)
  }

  private def ints(xs: List[Int]): JsonNode = { val a = nodes.arrayNode(); xs.foreach(a.add); a }
}
