import type { ReactNode } from 'react';
import { ArrowDownLeft, ArrowUpRight, CreditCard, History, Lock, PlusCircle, RotateCcw, ShieldCheck, Wallet } from 'lucide-react';
import { WALLET } from '@versus/domain';
import type { WalletTransaction } from '@versus/domain/wallet';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useAuth } from '../auth/use-auth.ts';
import { Badge, Button, Card, Spinner, cn } from '../../ui/index.ts';
import { showComingSoon } from './coming-soon.ts';
import { useBalance, useTransactions, useVirtualStats } from './use-balance.ts';
import { VirtualOverlayCard } from './VirtualOverlayCard.tsx';
import {
  accountStatus,
  amountClass,
  currencyName,
  describeTransaction,
  ecosystemLabel,
  formatAmount,
  formatSigned,
  formatWhen,
} from './wallet-format.ts';

/** /wallet: balance, escrow, status, the (beta) wallet actions and recent activity (SPEC §1, §2, §3). */
export default function WalletPage() {
  useDocumentTitle(WALLET.title);
  const { user, isVirtual } = useAuth();
  const balance = useBalance();
  const role = balance.view?.role ?? user?.role ?? 'user';
  const { figures, currency, error } = balance;
  const tone = amountClass(currency);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8" data-testid="wallet-page">
      <div className="mb-6 sm:mb-8">
        <p
          className={cn('text-xs font-bold tracking-[0.2em] uppercase', isVirtual ? 'text-vt' : 'text-accent')}
          data-testid="wallet-ecosystem"
        >
          {ecosystemLabel(role, isVirtual)}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-black sm:text-4xl">{WALLET.title}</h1>
          <Badge tone={isVirtual ? 'vt' : 'success'} className="mt-1 text-xs" data-testid="wallet-status">
            {accountStatus(isVirtual)}
          </Badge>
        </div>
      </div>

      {/* Phones: figures, the virtual card, then activity. Wide screens: the card beside both. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr] lg:items-start">
        <div className="min-w-0 space-y-6 lg:col-start-1 lg:row-start-1">
          {error ? (
            <Card
              role="alert"
              className="flex flex-col items-start gap-3 border-danger/40 p-6 sm:flex-row sm:items-center sm:justify-between"
              data-testid="wallet-error"
            >
              <div>
                <p className="font-bold text-danger">{error}</p>
                <p className="mt-1 text-sm text-muted">We tried three times. Check your connection and try again.</p>
              </div>
              <Button variant="secondary" onClick={balance.retry}>
                <RotateCcw className="size-4" aria-hidden />
                {WALLET.retry}
              </Button>
            </Card>
          ) : (
            <div className="grid grid-cols-2 gap-3 sm:gap-4">
              <FigureCard
                label={WALLET.available}
                icon={<Wallet aria-hidden />}
                value={figures ? formatAmount(figures.availableMinor, currency) : null}
                caption={currencyName(currency)}
                valueClass={tone}
                testId="wallet-available"
                highlight
              />
              <FigureCard
                label={WALLET.inGames}
                icon={<Lock aria-hidden />}
                value={figures ? formatAmount(figures.escrowMinor, currency) : null}
                caption="Held in escrow"
                valueClass={tone}
                testId="wallet-escrow"
              />
            </div>
          )}

          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3">
            <Button onClick={() => showComingSoon(WALLET.addFunds)} size="lg" className="col-span-2 px-4 sm:col-span-1">
              <PlusCircle className="size-5 shrink-0" aria-hidden />
              {WALLET.addFunds}
            </Button>
            <Button
              variant="secondary"
              size="lg"
              className="px-3 text-sm sm:px-4 sm:text-base"
              onClick={() => showComingSoon(WALLET.transactionHistory)}
            >
              <History className="hidden size-5 shrink-0 sm:block" aria-hidden />
              {WALLET.transactionHistory}
            </Button>
            <Button
              variant="secondary"
              size="lg"
              className="px-3 text-sm sm:px-4 sm:text-base"
              onClick={() => showComingSoon(WALLET.paymentMethods)}
            >
              <CreditCard className="hidden size-5 shrink-0 sm:block" aria-hidden />
              {WALLET.paymentMethods}
            </Button>
          </div>
        </div>

        <aside className={cn('lg:col-start-2 lg:row-span-2 lg:row-start-1', !isVirtual && 'hidden lg:block')}>
          {isVirtual ? <PinnedVirtualCard /> : <EscrowNote />}
        </aside>

        <div className="min-w-0 lg:col-start-1 lg:row-start-2">
          <RecentActivity />
        </div>
      </div>
    </div>
  );
}

function FigureCard(props: {
  label: string;
  icon: ReactNode;
  value: string | null;
  caption: string;
  valueClass: string;
  testId: string;
  highlight?: boolean;
}) {
  return (
    <Card className={cn('relative min-w-0 overflow-hidden p-4 sm:p-6', props.highlight && 'shadow-glow')}>
      {props.highlight && (
        <div aria-hidden className="pointer-events-none absolute -top-16 -right-16 size-40 rounded-full bg-accent/20 blur-3xl" />
      )}
      <div className="relative flex items-center gap-2 text-sm font-semibold text-muted [&>svg]:size-4">
        {props.icon}
        {props.label}
      </div>
      {props.value === null ? (
        <div aria-hidden className="relative mt-3 h-7 w-3/4 animate-pulse rounded-lg bg-surface-2 sm:h-10" />
      ) : (
        <p
          className={cn(
            'relative mt-2 font-mono text-xl font-black tabular-nums [overflow-wrap:anywhere] sm:text-3xl lg:text-4xl',
            props.valueClass,
          )}
          data-testid={props.testId}
        >
          {props.value}
        </p>
      )}
      <p className="relative mt-1 text-xs text-muted">{props.caption}</p>
    </Card>
  );
}

function PinnedVirtualCard() {
  const { stats, isError, retry } = useVirtualStats();
  return <VirtualOverlayCard stats={stats} isError={isError} onRetry={retry} />;
}

function EscrowNote() {
  return (
    <Card className="p-5">
      <p className="flex items-center gap-2 font-bold">
        <ShieldCheck className="size-5 text-success" aria-hidden />
        Secure escrow
      </p>
      <p className="mt-2 text-sm leading-relaxed text-muted">
        When you create or accept a challenge, your stake moves to <span className="font-semibold text-fg">{WALLET.inGames}</span>. The
        winner takes both stakes, a draw returns each stake, and there is no platform fee.
      </p>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------

function RecentActivity() {
  const transactions = useTransactions();
  const items = transactions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card className="p-0" data-testid="wallet-activity">
      <div className="flex items-center justify-between border-b border-border px-5 py-4">
        <h2 className="text-lg font-black">{WALLET.recentActivity}</h2>
        {transactions.isFetching && !transactions.isFetchingNextPage && <Spinner className="size-4 text-muted" label="Refreshing" />}
      </div>
      {transactions.isPending ? (
        <ul aria-hidden className="divide-y divide-border">
          {[0, 1, 2].map((n) => (
            <li key={n} className="flex items-center gap-3 px-5 py-4">
              <span className="size-9 animate-pulse rounded-xl bg-surface-2" />
              <span className="h-4 flex-1 animate-pulse rounded bg-surface-2" />
              <span className="h-4 w-20 animate-pulse rounded bg-surface-2" />
            </li>
          ))}
        </ul>
      ) : transactions.isError && items.length === 0 ? (
        <div role="alert" className="flex items-center justify-between gap-3 px-5 py-6 text-sm">
          <span className="text-danger">{WALLET.activityFailed}</span>
          <Button size="sm" variant="secondary" onClick={() => void transactions.refetch()}>
            {WALLET.retry}
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-muted">{WALLET.noActivity}</p>
      ) : (
        <ul className="divide-y divide-border">
          {items.map((tx) => (
            <TransactionRow key={tx.id} tx={tx} />
          ))}
        </ul>
      )}
      {transactions.hasNextPage && (
        <div className="border-t border-border p-3 text-center">
          <Button variant="ghost" size="sm" loading={transactions.isFetchingNextPage} onClick={() => void transactions.fetchNextPage()}>
            {WALLET.loadMore}
          </Button>
        </div>
      )}
    </Card>
  );
}

function TransactionRow({ tx }: { tx: WalletTransaction }) {
  const line = describeTransaction(tx);
  const vt = line.currency === 'vtokens';
  const Icon = line.amountMinor >= 0 ? ArrowDownLeft : ArrowUpRight;
  return (
    <li className="flex items-center gap-3 px-5 py-3.5" data-testid="wallet-transaction">
      <span
        aria-hidden
        className={cn(
          'inline-flex size-9 shrink-0 items-center justify-center rounded-xl ring-1',
          line.tone === 'gain'
            ? 'bg-success/10 text-success ring-success/30'
            : line.tone === 'loss'
              ? 'bg-danger/10 text-danger ring-danger/30'
              : 'bg-surface-2 text-muted ring-border',
        )}
      >
        {line.amountOf === 'escrow' ? <Lock className="size-4" /> : <Icon className="size-4" />}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold">{line.title}</p>
        <p className="truncate text-xs text-muted">
          <time dateTime={tx.createdAt}>{formatWhen(tx.createdAt)}</time>
          {line.detail && <> · {line.detail}</>}
        </p>
      </div>
      <div className="shrink-0 text-right">
        <p
          className={cn(
            'font-mono text-sm font-bold tabular-nums',
            vt ? 'text-vt' : line.tone === 'gain' ? 'text-success' : line.tone === 'loss' ? 'text-danger' : 'text-fg',
          )}
          data-testid="wallet-transaction-amount"
        >
          {formatSigned(line.amountMinor, line.currency)}
        </p>
        {(line.amountOf === 'escrow' || line.escrowMinor !== 0) && (
          <p className="text-[0.7rem] text-muted">
            {line.amountOf === 'escrow' ? WALLET.inGames : `${WALLET.inGames} ${formatSigned(line.escrowMinor, line.currency)}`}
          </p>
        )}
      </div>
    </li>
  );
}
