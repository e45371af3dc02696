package cogs.absc.monitoring

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import com.typesafe.config.{Config, ConfigList, ConfigObject, ConfigValue, ConfigValueFactory, ConfigValueType}

import cogs.session.ProtocolModule
import cogs.session.monitor.{MessageRef, Policy, SessionType}

/** A bad `sessions` entry of a monitor configuration; the message is `file:line: error: ...`, ready to print. */
final class SessionConfigException(message: String) extends RuntimeException(message)

/**
 * One protocol message mapped to an ABS method: `msg` is sent by an asynchronous call of `method`
 * of the receiving role's class; if `reply` is set, the value that call returns is the message
 * `reply` (back from the receiver to the sender), checked when the callee's process finishes.
 */
final case class MappedCall(msg: MessageRef, method: String, reply: Option[MessageRef], line: Int)

/**
 * One entry of `cogs.monitor.sessions`: a protocol (from a Scribble file), the ABS class that
 * plays each role, the calls that are its messages, and the policy on violation.
 *
 * @param file  the protocol file as the configuration names it (resolved against its directory)
 * @param text  the protocol file's text (embedded in a compiled model, which then needs no file)
 * @param roles role to ABS class name, in the protocol's role order, with the line of each binding
 */
final case class SessionEntry(file: String, text: String, sessionType: SessionType, roles: List[(String, String, Int)],
    calls: List[MappedCall], configFile: String, line: Int) {
  def protocol: String = sessionType.name
  def policy: Policy = sessionType.policy
  /** The roles played by objects of ABS class `cls`. */
  def rolesOf(cls: String): List[String] = roles.collect { case (r, c, _) if c == cls => r }
  def classOf(role: String): String = roles.collectFirst { case (`role`, c, _) => c }.get
}

object SessionEntry {
  /** What a role bound to the program's main block names instead of a class (no ABS class can be called so). */
  final val MainBlock = "main"
}

/**
 * The `sessions` list of a monitor configuration (issue 11, point 6):
 * {{{
 * cogs.monitor.sessions = [{
 *   file = "purchase.scr", protocol = Purchase, policy = reject
 *   roles { B = Buyer, S = Seller, A = Authenticator }
 *   messages { login = login, "quote from S to B" = quote, price = { reply-to = quote } }
 * }]
 * }}}
 * A message key is a label, or `"label from R1 to R2"` when the label is used between several
 * pairs of roles; its value is the method of the receiving role's class whose asynchronous calls
 * are that message, or `{ reply-to = M }`: the message is the return value of the call that is
 * message `M` (which must go the other way). Messages not mapped are never instrumented.
 *
 * Everything that can be checked without the ABS model is checked here, each error at the
 * configuration line of its key (the classes and methods are checked by absc against the model).
 */
object SessionConfig {
  final val Key = "cogs.monitor.sessions"
  private val EntryKeys = Set("file", "text", "protocol", "policy", "roles", "messages")

  /** The configuration without its sessions (the monitor pipeline does not know them). */
  def withoutSessions(config: Config): Config = config.withoutPath(Key)

  /**
   * The entries of `config` (none without a `sessions` key). A protocol file is read relative to
   * `baseDir` unless the entry carries its `text` (as the configuration a compiled model embeds does).
   */
  def parse(config: Config, configFile: String, baseDir: Option[Path]): List[SessionEntry] =
    if (!config.hasPath(Key)) Nil
    else {
      val v = config.getValue(Key)
      if (v.valueType != ConfigValueType.LIST) fail(configFile, v, "sessions: expected a list of sessions ([{ file = ..., protocol = ..., roles { ... } }])")
      v.asInstanceOf[ConfigList].asScala.toList.zipWithIndex.map { case (e, i) => entry(e, s"sessions[$i]", configFile, baseDir) }
    }

  /** `config` with each session entry's protocol text embedded (`text`) and its file made absolute. */
  def embed(config: Config, entries: List[SessionEntry]): Config =
    if (entries.isEmpty) config
    else {
      val list = config.getList(Key).asScala.toList.zip(entries).map { case (v, e) =>
        v.asInstanceOf[ConfigObject].withValue("text", ConfigValueFactory.fromAnyRef(e.text))
          .withValue("file", ConfigValueFactory.fromAnyRef(e.file))
      }
      config.withValue(Key, ConfigValueFactory.fromIterable(list.asJava))
    }

  private def line(v: ConfigValue): Int = Option(v.origin).map(_.lineNumber).filter(_ > 0).getOrElse(0)

  private def fail(file: String, v: ConfigValue, msg: String): Nothing = failAt(file, line(v), msg)

  private def failAt(file: String, l: Int, msg: String): Nothing = {
    throw new SessionConfigException(if (l > 0) s"$file:$l: error: $msg" else s"$file: error: $msg")
  }

  private def entry(v: ConfigValue, at: String, file: String, baseDir: Option[Path]): SessionEntry = {
    if (v.valueType != ConfigValueType.OBJECT) fail(file, v, s"$at: expected an object { file = ..., protocol = ..., roles { ... }, messages { ... } }")
    val o = v.asInstanceOf[ConfigObject]
    o.asScala.foreach { case (k, kv) =>
      if (!EntryKeys(k)) fail(file, kv, s"$at.$k: unknown key; known here: ${EntryKeys.toList.sorted.mkString(", ")}")
    }
    def str(k: String): String = Option(o.get(k)) match {
      case None => fail(file, v, s"$at: missing '$k'")
      case Some(x) if x.valueType == ConfigValueType.STRING => x.unwrapped.toString
      case Some(x) => fail(file, x, s"$at.$k: expected a string")
    }
    def obj(k: String): Option[ConfigObject] = Option(o.get(k)).map {
      case x: ConfigObject => x
      case x => fail(file, x, s"$at.$k: expected an object")
    }
    val protoFile = str("file")
    val text = Option(o.get("text")) match {
      case Some(t) => t.unwrapped.toString
      case None =>
        val p = baseDir.fold(Path.of(protoFile))(_.resolve(protoFile))
        try new String(Files.readAllBytes(p), UTF_8)
        catch { case e: java.io.IOException => fail(file, o.get("file"), s"$at.file: cannot read '$p': ${Option(e.getMessage).getOrElse(e.toString)}") }
    }
    val shownFile = baseDir.fold(protoFile)(_.resolve(protoFile).normalize.toString)
    val module = ProtocolModule.check(shownFile, text) match {
      case Right(m) => m
      case Left(ds) =>
        // The protocol file's own errors, each at its line and column in that file.
        throw new SessionConfigException(ds.map(_.render(text)).mkString("\n") +
          s"\n${if (line(o.get("file")) > 0) s"$file:${line(o.get("file"))}" else file}: error: $at.file: the protocol file has errors")
    }
    val protoName = str("protocol")
    val protocol = module.protocols.find(_.name == protoName).getOrElse(
      fail(file, o.get("protocol"), s"$at.protocol: '$shownFile' has no protocol '$protoName' (it has: ${module.protocols.map(_.name).mkString(", ")})"))
    val policy = Option(o.get("policy")).map { p =>
      try Policy.parse(p.unwrapped.toString)
      catch { case e: IllegalArgumentException => fail(file, p, s"$at.policy: ${e.getMessage}") }
    }.getOrElse(Policy.Reject)
    val st =
      try new SessionType(protocol, policy)
      catch { case e: IllegalArgumentException => fail(file, o.get("file"), s"$at: ${e.getMessage}") }

    val rolesObj = obj("roles").getOrElse(fail(file, v, s"$at: missing 'roles' (each role of $protoName bound to an ABS class)"))
    rolesObj.asScala.foreach { case (r, c) =>
      if (!protocol.roles.contains(r)) fail(file, c, s"$at.roles.$r: protocol $protoName has no role '$r' (its roles: ${protocol.roles.mkString(", ")})")
      if (c.valueType != ConfigValueType.STRING ||
          !(c.unwrapped.toString.matches("[A-Z][A-Za-z0-9_]*") || c.unwrapped.toString == SessionEntry.MainBlock))
        fail(file, c, s"$at.roles.$r: expected the name of an ABS class, or ${SessionEntry.MainBlock} (the main block)")
    }
    val roles = protocol.roles.map { r =>
      val c = Option(rolesObj.get(r)).getOrElse(fail(file, rolesObj, s"$at.roles: role '$r' of $protoName is not bound to a class"))
      (r, c.unwrapped.toString, line(c))
    }

    val msgs = obj("messages").map(_.asScala.toList).getOrElse(Nil)
    def resolve(key: String, where: ConfigValue, what: String): MessageRef = {
      val Full = """(\S+)\s+from\s+(\S+)\s+to\s+(\S+)""".r
      key.trim match {
        case Full(l, f, t) =>
          st.messages.find(m => m.label == l && m.from == f && m.to == t).getOrElse(
            fail(file, where, s"$what: protocol $protoName has no message $l from $f to $t"))
        case l =>
          st.messages.filter(_.label == l).toList match {
            case List(m) => m
            case Nil => fail(file, where, s"$what: protocol $protoName has no message '$l' (its labels: ${st.messages.map(_.label).distinct.mkString(", ")})")
            case ms => fail(file, where, s"$what: label '$l' is used by several messages of $protoName (${ms.map(m => s"$l from ${m.from} to ${m.to}").mkString(", ")}); name one as \"$l from R1 to R2\"")
          }
      }
    }
    val raw = msgs.map { case (k, mv) =>
      val m = resolve(k, mv, s"$at.messages.\"$k\"")
      mv match {
        case s if s.valueType == ConfigValueType.STRING =>
          val meth = s.unwrapped.toString
          if (!meth.matches("[a-z][A-Za-z0-9_]*")) fail(file, s, s"$at.messages.\"$k\": expected the name of an ABS method, not '$meth'")
          (m, Left(meth), line(mv))
        case r: ConfigObject if r.keySet.asScala == Set("reply-to") =>
          val req = resolve(r.get("reply-to").unwrapped.toString, r.get("reply-to"), s"$at.messages.\"$k\".reply-to")
          if (req.from != m.to || req.to != m.from)
            fail(file, r.get("reply-to"), s"$at.messages.\"$k\".reply-to: the reply $m must go back from the receiver of the request ($req)")
          (m, Right(req), line(mv))
        case other => fail(file, other, s"$at.messages.\"$k\": expected a method name or { reply-to = LABEL }")
      }
    }
    val methods = raw.collect { case (m, Left(meth), l) => (m, meth, l) }
    val replies = raw.collect { case (m, Right(req), l) => (req, m, l) }
    replies.groupBy(_._1).foreach { case (req, rs) =>
      if (rs.size > 1) fail(file, o.get("messages"), s"$at.messages: the request $req has ${rs.size} replies")
      if (!methods.exists(_._1 eq req)) fail(file, o.get("messages"), s"$at.messages: ${rs.head._2} replies to $req, which is not mapped to a method")
    }
    // The main block has no methods: a message to a role it plays can only be the reply to its call.
    methods.foreach { case (m, meth, l) =>
      if (roles.exists { case (r, c, _) => r == m.to && c == SessionEntry.MainBlock })
        failAt(file, l, s"$at.messages: message $m goes to role ${m.to}, which the main block plays; the main block has no methods, so a message to it can only be a reply ({ reply-to = ... })")
    }
    val calls = methods.map { case (m, meth, l) => MappedCall(m, meth, replies.find(_._1 eq m).map(_._2), l) }
    calls.groupBy(c => (c.msg.from, c.msg.to, c.method)).foreach { case ((f, t, meth), cs) =>
      if (cs.size > 1) fail(file, o.get("messages"),
        s"$at.messages: method '$meth' is mapped to several messages from $f to $t (${cs.map(_.msg.label).mkString(", ")}); a call must be one message")
    }
    SessionEntry(shownFile, text, st, roles, calls, file, line(v))
  }
}
