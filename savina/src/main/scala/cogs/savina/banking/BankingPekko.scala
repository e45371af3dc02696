package cogs.savina.banking

import cogs.savina.{BenchActor, PekkoRun}
import java.util.ArrayDeque
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/**
 * Banking on Pekko with Savina's protocol (its "manual stash" version): the source account takes
 * the amount, sends a debit to the destination and stashes every other message until the
 * destination's reply, then replies to the teller. When every transfer is acknowledged the teller
 * asks each account for its balance (the check), then stops them. (Savina re-sends stashed
 * messages to the account one at a time; here the stash is replayed in order, in place.)
 */
object BankingPekko {

  private case object Start
  private final class Credit(val teller: ActorRef, val amount: Long, val to: ActorRef)
  private final class Debit(val from: ActorRef, val amount: Long)
  private case object Reply
  private final class Report(val teller: ActorRef)
  private final class Balance(val id: Int, val amount: Long)
  private case object Stop

  def run(system: ActorSystem, p: Params): Ledger = {
    val run = new PekkoRun[Ledger](system, Banking.name)
    run.actorOf(Props(new TellerActor(run, p))) ! Start
    run.await()
  }

  private final class TellerActor(run: PekkoRun[Ledger], p: Params) extends BenchActor(run) {
    private[this] val accounts = Array.tabulate(p.accounts)(i => run.actorOf(Props(new AccountActor(run, i, Banking.InitialBalance))))
    private[this] var completed = 0L
    private[this] val balances = new Array[Long](p.accounts)
    private[this] var reported = 0

    def receive: Receive = {
      case Start =>
        val ts = new Banking.Transfers(p)
        var i = 0
        while (i < p.transactions) {
          val (src, dst, amount) = ts.next()
          accounts(src) ! new Credit(self, amount, accounts(dst))
          i += 1
        }
      case Reply =>
        completed += 1
        if (completed == p.transactions) { val r = new Report(self); accounts.foreach(_ ! r) }
      case b: Balance =>
        balances(b.id) = b.amount
        reported += 1
        if (reported == p.accounts) {
          accounts.foreach(_ ! Stop)
          run.answer(Banking.ledger(completed, balances))
          exit()
        }
    }
  }

  private final class AccountActor(run: PekkoRun[Ledger], id: Int, initial: Long) extends BenchActor(run) {
    private[this] var money = initial
    private[this] var waitingFor: ActorRef = _ // the teller to answer once the destination replied
    private[this] val stash = new ArrayDeque[Any]()

    def receive: Receive = { case msg => handle(msg) }

    private def handle(msg: Any): Unit = msg match {
      case Reply if waitingFor ne null =>
        waitingFor ! Reply
        waitingFor = null
        // Run the stashed messages in order until one starts another transfer.
        while ((waitingFor eq null) && !stash.isEmpty) handle(stash.pollFirst())
      case other if waitingFor ne null => stash.addLast(other)
      case d: Debit =>
        money += d.amount
        d.from ! Reply
      case c: Credit =>
        money -= c.amount
        c.to ! new Debit(self, c.amount)
        waitingFor = c.teller
      case r: Report => r.teller ! new Balance(id, money)
      case Stop   => exit()
    }
  }
}
