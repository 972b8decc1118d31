package dev.clique.engine.session;

import dev.clique.engine.catalogue.CostEstimate;
import dev.clique.engine.catalogue.PriceTable;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.discovery.TranscriptMapping;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.UsageReport;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each session has used, as its CLI recorded it ({@link Transcripts#usage}): its transcript is
 * found as for its conversation, where the session's own environment says or, for a session clique
 * did not start, from its process; priced from the price table ({@code cost_usd_estimate}) where
 * its model has a row. Gathered with the other slow facts, off the answer's path.
 */
public final class SessionUsage {
  private static final Logger log = LoggerFactory.getLogger(SessionUsage.class);

  /** Reads nothing: no session's usage is known. */
  public static final SessionUsage NONE = new SessionUsage();

  private final Transcripts transcripts;
  private final Path userHome;
  private final TranscriptMapping mapping;
  private final PriceTable prices;

  /**
   * Reads with {@code transcripts}, the engine's one reader, whose caches then serve the
   * conversation and the usage alike.
   *
   * @param userHome the home to assume for a discovered CLI whose environment names none
   * @param prices the models' list prices the estimates come from
   */
  public SessionUsage(Transcripts transcripts, Path userHome, PriceTable prices) {
    this.transcripts = Objects.requireNonNull(transcripts, "transcripts");
    this.userHome = Objects.requireNonNull(userHome, "userHome");
    this.prices = Objects.requireNonNull(prices, "prices");
    this.mapping = new TranscriptMapping();
  }

  private SessionUsage() {
    this.transcripts = null;
    this.userHome = null;
    this.mapping = null;
    this.prices = PriceTable.NONE;
  }

  /** What the CLI of {@code record} recorded of its use; {@link UsageReport#NONE} when nothing. */
  UsageReport of(SessionService sessions, SessionRecord record) {
    if (transcripts == null) {
      return UsageReport.NONE;
    }
    String kind = sessions.transcriptKind(record);
    if (!Transcripts.kinds().contains(kind)) {
      return UsageReport.NONE;
    }
    try {
      Optional<Found> found = sessions.found(record.id());
      if (found.isPresent()) {
        // A session clique did not start: its transcript is found from its process.
        TranscriptMapping.Mapped mapped = mapping.map(found.get(), kind, userHome);
        return CostEstimate.priced(transcripts.usage(mapped.request(), mapped.roots()), prices);
      }
      return CostEstimate.priced(
          transcripts.usage(sessions.transcriptRequest(record, kind)), prices);
    } catch (RuntimeException e) {
      // One session whose process or files cannot be read costs its usage, not the others' facts.
      log.debug("usage of session {} not readable", record.id(), e);
      return UsageReport.NONE;
    }
  }
}
