package cogs.examples

import cogs.runtime._
import cogs.session.ProtocolModule
import cogs.session.monitor.{Policy, ProtocolViolation, Session, SessionReport, SessionType}

/**
 * The running example of "Multiparty Session Actors" (Neykova and Yoshida): the Purchase protocol
 * between a buyer (B), a seller (S) and an authenticator (A), checked at run time by cogs-session.
 * The three objects are invited into a session (the invitation step: each accepts its role, and
 * the session starts when the last role is taken); then the buyer logs in at the seller, the
 * seller asks the authenticator, which confirms to both, and the buyer asks for a quote, which
 * is the value of its request's future (a reply as a protocol event).
 *
 * `buggy`: the buyer asks for the quote right after logging in, without waiting for the
 * authenticator. The buyer's monitor refuses the request before it leaves (policy reject: its
 * future fails with a ProtocolViolation), and the end report says that B and S did not finish.
 * The ABS version of the same example is `examples/sessions/Purchase.abs` (run with absc).
 */
object PurchaseSession {

  // The same protocol as examples/sessions/purchase.scr, with JVM payload types instead of ABS values.
  val Protocol: String =
    """module warehouse;
      |type <java> "java.lang.String" from "rt.jar" as String;
      |type <java> "java.lang.Integer" from "rt.jar" as Int;
      |global protocol Purchase(role B, role S, role A) {
      |  login(String) from B to S;
      |  login(String) from S to A;
      |  authenticate(String) from A to S, B;
      |  choice at B {
      |    request(String) from B to S;
      |    quote(Int) from S to B;
      |  } or {
      |    buy(String) from B to S;
      |    delivery(String) from S to B;
      |  } or {
      |    quit() from B to S;
      |  }
      |}
      |""".stripMargin

  private lazy val purchase = ProtocolModule.parse("purchase.scr", Protocol).protocol("Purchase")

  trait Seller extends Active {
    def login(s: Session, user: String): Proc[Unit]
    def authenticate(s: Session, token: String): Proc[Unit]
    def request(s: Session, item: String): Proc[Integer]
  }
  trait Authenticator extends Active { def login(s: Session, user: String): Proc[Unit] }
  trait Buyer extends Active {
    def start(s: Session): Proc[Unit]
    def authenticate(s: Session, token: String): Proc[Unit]
  }

  final class SellerImpl extends ActiveObject with Seller {
    def login(s: Session, user: String): Proc[Unit] = Proc.delay {
      s.tell[Authenticator](s.sessionType.message("S", "A", "login"), user)(_.login(s, user))
    }
    def authenticate(s: Session, token: String): Proc[Unit] = Proc.unit
    def request(s: Session, item: String): Proc[Integer] = Proc.done(Integer.valueOf(42))
    override def toString = "seller"
  }

  final class AuthImpl extends ActiveObject with Authenticator {
    def login(s: Session, user: String): Proc[Unit] = Proc.delay {
      val token = s"token-$user"
      s.tell[Seller](s.sessionType.message("A", "S", "authenticate"), token)(_.authenticate(s, token))
      s.tell[Buyer](s.sessionType.message("A", "B", "authenticate"), token)(_.authenticate(s, token))
    }
    override def toString = "authenticator"
  }

  final class BuyerImpl(buggy: Boolean) extends ActiveObject with Buyer {
    @volatile var quote: Fut[Integer] = _

    def start(s: Session): Proc[Unit] = Proc.delay {
      s.tell[Seller](s.sessionType.message("B", "S", "login"), "alice")(_.login(s, "alice"))
      if (buggy) ask(s) // BUG: the protocol says to wait for the authenticator first
    }
    def authenticate(s: Session, token: String): Proc[Unit] = Proc.delay { if (!buggy) ask(s) }

    private def ask(s: Session): Unit = {
      val st = s.sessionType
      quote = s.request[Seller, Integer](st.message("B", "S", "request"), st.message("S", "B", "quote"), "book")(_.request(s, "book"))
    }
    override def toString = "buyer"
  }

  final case class Result(buggy: Boolean, quote: Option[scala.util.Try[Integer]], session: SessionReport) extends Outcome {
    private def earlyRequest(v: ProtocolViolation) = v.role == "B" && v.received == "S!request(String)"
    def problems: List[String] =
      if (!buggy) List(
        if (!session.complete) Some(s"the session did not complete:\n${session.render}") else None,
        if (!quote.exists(_.toOption.contains(Integer.valueOf(42)))) Some(s"the buyer's quote is $quote, not 42") else None).flatten
      else List(
        if (!session.violations.exists(earlyRequest)) Some(s"the monitor did not catch the early request:\n${session.render}") else None,
        if (!quote.exists(_.isFailure)) Some(s"the early request was not refused: $quote") else None,
        if (session.unfinished.map(_.role) != List("B", "S")) Some(s"expected B and S unfinished:\n${session.render}") else None).flatten
    def report: String =
      (if (buggy) "purchase (buggy buyer): the monitor caught the buyer asking for a quote before the authenticator answered\n"
       else s"purchase (fixed): alice is quoted ${quote.flatMap(_.toOption).getOrElse("nothing")} for a book\n") + session.render
  }

  def run(rt: CogRuntime, buggy: Boolean): Result = {
    val st = new SessionType(purchase, Policy.Reject)
    val auth = rt.spawn(new AuthImpl)
    val seller = rt.spawn(new SellerImpl)
    val buyer = rt.spawn(new BuyerImpl(buggy))
    // The invitation step: the buyer starts when the session does, i.e. when the last role is taken.
    val inv = st.invite()
    inv.whenStarted(s => Cogs.tell[Buyer](s.role("B").asInstanceOf[Buyer], "start", _.start(s)))
    inv.accept("A", auth)
    inv.accept("S", seller)
    inv.accept("B", buyer)
    rt.awaitQuiescence()
    Result(buggy, Option(buyer.quote).flatMap(_.poll), inv.session.get.end())
  }

  def main(args: Array[String]): Unit =
    ExampleMain.main("purchase", "examples/run purchase [fixed|buggy]", args) { (rt, args) =>
      val buggy = args.headOption match {
        case None | Some("fixed") => false
        case Some("buggy") => true
        case Some(other) => throw new ExampleMain.UsageError(s"the variant is 'fixed' or 'buggy', not '$other'")
      }
      run(rt, buggy)
    }
}
