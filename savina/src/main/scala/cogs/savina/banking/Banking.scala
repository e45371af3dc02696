package cogs.savina.banking

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[Banking]]. */
final case class Params(accounts: Int, transactions: Int) {
  require(accounts >= 10 && transactions >= 1, s"bad parameters $this")
  override def toString = s"accounts=$accounts transactions=$transactions"
}

/** The state of the bank after a run: transfers completed, total money, and a digest of every balance. */
final case class Ledger(transfers: Long, total: Long, digest: Long) {
  override def toString = s"$transfers transfers, total $total, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `banking`: a teller sends `transactions` random transfers to `accounts` accounts; the
 * source account takes the amount, asks the destination account to add it, and acknowledges the
 * transfer to the teller once the destination confirmed. Sources are always below destinations
 * (as in Savina), so no two accounts wait for each other. Balances are whole numbers (Savina
 * uses doubles so large that adding an amount changes nothing), so the final balances are
 * checked exactly against a sequential replay of the same random transfers.
 */
object Banking extends SavinaBenchmark[Params, Ledger] {
  val name = "banking"
  val title = "Bank Transaction"
  val defaults: Params = Params(accounts = 1000, transactions = 50000)
  val quick: Params = Params(accounts = 100, transactions = 10000)

  val InitialBalance = 1000000000L

  /** The transfers, in the order the teller sends them: (source, destination, amount). */
  final class Transfers(p: Params) {
    private[this] val random = new Rand(123456)
    def next(): (Int, Int, Long) = {
      val src = random.nextInt((p.accounts / 10) * 8)
      var step = random.nextInt(p.accounts - src)
      if (step == 0) step = 1
      (src, src + step, random.nextInt(1000).toLong + 1)
    }
  }

  def ledger(transfers: Long, balances: Array[Long]): Ledger = {
    var digest = 0L
    var i = 0
    while (i < balances.length) { digest = digest * 31 + balances(i); i += 1 }
    Ledger(transfers, balances.sum, digest)
  }

  def expected(p: Params): Ledger = {
    val balances = Array.fill(p.accounts)(InitialBalance)
    val ts = new Transfers(p)
    for (_ <- 0 until p.transactions) {
      val (src, dst, amount) = ts.next()
      balances(src) -= amount
      balances(dst) += amount
    }
    ledger(p.transactions.toLong, balances)
  }

  def runCogs(rt: CogRuntime, p: Params): Ledger = BankingCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): Ledger = BankingPekko.run(system, p)
}
