package dev.earshot;

import dev.earshot.models.MetricName;
import dev.earshot.models.MetricSeries;
import dev.earshot.models.MetricSeriesParams;
import java.util.Arrays;
import java.util.List;

/** Metric time series: GET /metrics. */
public final class MetricService {
  private final Transport transport;

  MetricService(Transport transport) {
    this.transport = transport;
  }

  /** The metric names a series can be asked for, as the API description lists them (the API has no catalogue route of its own). */
  public List<MetricName> catalogue() {
    return Arrays.stream(MetricName.values()).filter(name -> name != MetricName.UNKNOWN).toList();
  }

  /** One metric's series over a range, at an interval, for all agents or one. */
  public MetricSeries series(MetricSeriesParams params) {
    return transport.call("GET", "/metrics", params, null, MetricSeries.class, RequestOptions.NONE);
  }
}
