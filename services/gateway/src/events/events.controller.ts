import { Controller, Get, Inject, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { type Job, ServiceFailure } from '@transmute/contracts';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '../auth';
import { renderJob } from '../jobs/job-view';
import { JobsClient } from '../jobs/jobs.client';
import { EVENTS_CONFIG, type EventsConfig } from './events.config';
import { JobEventHub } from './job-event-hub';
import { JobEventSession, type StampedJob } from './job-event-session';
import { KeepAlive } from './keep-alive';
import { PROGRESS_EVENT, eventName, formatEvent, parseLastEventId } from './sse';
import { checkedJobId } from '../jobs/job-id';

/** What EventSource waits before reconnecting after a drop. */
const RECONNECT_MS = 2_000;
/** How long a resumed stream waits for the log to bring a status the store already shows. */
const CATCH_UP_GRACE_MS = 2_000;

/**
 * `GET /v1/process/jobs/{jobId}/events` (text/event-stream), docs/events.md.
 * Authentication and the job look-up happen before the first byte, so 401
 * and 404 are ordinary error responses; after that the stream is live.
 */
@Controller('v1/process/jobs')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(
    private readonly jobs: JobsClient,
    private readonly hub: JobEventHub,
    private readonly keepAlive: KeepAlive,
    @Inject(EVENTS_CONFIG) private readonly config: EventsConfig,
  ) {}

  @Get(':jobId/events')
  async events(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined, @Req() request: Request, @Res() response: Response): Promise<void> {
    checkedJobId(jobId);
    if (!principal) throw new Error('ApiKeyGuard let a keyed request through without a principal');
    const lastEventId = parseLastEventId(request.headers['last-event-id']);

    // Listen first, so nothing published while the current state is read is missed; overlaps are sorted out by sequence.
    const early: StampedJob[] = [];
    let session: JobEventSession | undefined;
    const unsubscribe = this.hub.subscribe(jobId, (event) => (session ? session.offer(event) : early.push(event)));
    let opening;
    try {
      opening = await this.opening(jobId, principal.accountId, lastEventId);
    } catch (error) {
      unsubscribe();
      throw error;
    }

    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('X-Accel-Buffering', 'no');
    response.setHeader('Connection', 'keep-alive');
    response.flushHeaders();
    request.socket.setNoDelay(true);
    response.write(`retry: ${RECONNECT_MS}\n\n`);

    let stopKeepAlive = (): void => undefined;
    let catchUpTimer: NodeJS.Timeout | undefined;
    let recheckTimer: NodeJS.Timeout | undefined;
    const close = () => {
      unsubscribe();
      stopKeepAlive();
      clearTimeout(catchUpTimer);
      clearInterval(recheckTimer);
    };
    session = new JobEventSession({
      emit: (seq, job, kind) => response.write(formatEvent(seq, kind === 'progress' ? PROGRESS_EVENT : eventName(job.status), renderJob(job))),
      end: () => {
        close();
        response.end();
      },
    });
    if (opening.resumeFrom) {
      session.resumeAfter(opening.resumeFrom.seq, opening.resumeFrom.job);
      for (const event of opening.replay) session.offer(event);
      for (const event of early) session.offer(event);
      if (session.lagsBehind(opening.current)) {
        // The store is ahead of the log (its event is being written): wait for the live event, then fall back to the store's job.
        const position = session.position;
        const current = opening.current;
        catchUpTimer = setTimeout(() => session?.catchUp(opening.latestSeq, current, position), CATCH_UP_GRACE_MS);
      }
    } else {
      session.start(opening.latestSeq, opening.current);
      for (const event of early) session.offer(event);
    }
    if (session.isEnded) return;
    // The response's close (not the request's, which may come when its empty body is read) marks a client gone.
    if (response.destroyed || response.writableEnded) return close();
    stopKeepAlive = this.keepAlive.add(response);
    const live = session;
    recheckTimer = setInterval(() => void this.recheck(jobId, principal.accountId, live), this.config.recheckMs);
    response.on('close', close);
  }

  /**
   * The safety net for a change the log never got (its append failed while
   * the store's write held): the stored job, when it shows a status the
   * stream has not sent and no event arrived while it was read.
   */
  private async recheck(jobId: string, accountId: string, session: JobEventSession): Promise<void> {
    const position = session.position;
    try {
      const [latestSeq, current] = await Promise.all([this.hub.latestSeq(jobId), this.jobs.get(jobId, accountId)]);
      // A change younger than the grace is most likely still on its way through the log, which numbers it properly.
      const changedAt = current.updatedAt ? timestampMs(current.updatedAt) : 0;
      if (Date.now() - changedAt < CATCH_UP_GRACE_MS) return;
      session.catchUp(latestSeq, current, position);
    } catch {
      // The next tick tries again; the live log is still followed meanwhile.
    }
  }

  /** Everything read before the stream opens; throws the job look-up's 404 while an error response is still possible. */
  private async opening(jobId: string, accountId: string, lastEventId: number | undefined) {
    // The log's position is read before the job: an event in between is then replayed, never skipped.
    const latestSeq = await logAccess(() => this.hub.latestSeq(jobId));
    const current = await this.jobs.get(jobId, accountId);
    // 0 is the id of a first event sent before the log held any: resume from the start of the job's log.
    const resumeFrom: { seq: number; job: Job | undefined } | null =
      lastEventId === undefined
        ? null
        : lastEventId === 0
          ? { seq: 0, job: undefined }
          : await logAccess(async () => {
              const event = await this.hub.eventAt(jobId, lastEventId);
              return event ? { seq: event.seq, job: event.job } : null;
            });
    const replay = resumeFrom ? await logAccess(() => this.hub.eventsAfter(jobId, resumeFrom.seq, latestSeq)) : [];
    return { latestSeq, current, resumeFrom, replay };
  }
}

/** The event log lives in NATS; when it cannot be read the client gets 503, as for any dependency. */
async function logAccess<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw ServiceFailure.unavailable('the job event log is unavailable; try again shortly', error);
  }
}
