/** The scorers' view of the statistics module (src/stats), kept so existing imports stay valid. */
export { mean, percentile, wilson, type Interval as WilsonInterval } from '../stats/index.js';
