/** A view's metadata: no imports, so that every layer may name views (the worker's mechanism modules too). */
export type ViewId = string;

export interface ViewMeta {
  id: ViewId;
  title: string;
  /** what the view shows, for its accessible description */
  description: string;
  column: 'main' | 'side';
  /** its share of its column's height (the panels of a column split it: sizes never follow the content) */
  grow?: number;
  /** the least height of its panel, in rem, where its share would leave its drawing unreadable (a chart's axis) */
  minRem?: number;
  /** the view sizes its drawing to the panel body (a flex column it fills) instead of scrolling */
  fit?: boolean;
  /** the view draws a chart in SVG (marked data-export): Export offers it as SVG too */
  svg?: boolean;
  /** its place in its column (the shared views are 10, 20, 30...; a mechanism's go between) */
  order?: number;
  /** comparing, draw once with every run (ViewProps.others) instead of A and B side by side */
  overlay?: boolean;
  /** it draws the whole run (a chart over the run, counters' totals): hidden while an exercise's question is open */
  wholeRun?: boolean;
}
