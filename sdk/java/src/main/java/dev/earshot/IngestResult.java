package dev.earshot;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The answer to {@link IngestService#send}: a result per envelope, in the order sent.
 *
 * @param accepted how many were accepted
 * @param duplicates how many were duplicates
 * @param deadLettered how many were dead-lettered
 * @param results each envelope's result, in the order sent
 */
public record IngestResult(int accepted, int duplicates, int deadLettered, List<EnvelopeResult> results) {
  /** Copies the results, so that a result never changes. */
  public IngestResult {
    results = Collections.unmodifiableList(new ArrayList<>(results));
  }

  static IngestResult of(List<EnvelopeResult> results) {
    int accepted = 0;
    int duplicates = 0;
    int dead = 0;
    for (EnvelopeResult r : results) {
      switch (r.status()) {
        case ACCEPTED -> accepted++;
        case DUPLICATE -> duplicates++;
        case DEAD_LETTERED -> dead++;
        case REJECTED -> {}
      }
    }
    return new IngestResult(accepted, duplicates, dead, results);
  }
}
