export { coverOf, type Cover } from './cover';
export { bucketStarts, INTERVAL_MS, METRIC_CATALOGUE, metricNamed, QUANTILES, type MetricDefinition, type MetricSource, type QuantileName } from './catalogue';
export { isoString } from './iso-string';
export { METRICS } from './metric-names';
export { seriesRange } from './series-range';
export { ALPHA, mannWhitney, mannWhitneyValues, twoProportion } from './significance';
export { addSample, copySketch, quantile, RELATIVE_ACCURACY, SketchSum, sketchOf, type Sketch } from './sketch';
