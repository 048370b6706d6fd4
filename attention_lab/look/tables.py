"""The explorer's styles: the layout its heatmaps and breakdowns share, and how small a wide matrix's numbers get.

`CSS` is the layout the live front-end's heatmaps and breakdowns share (live/page.py puts it in the bundle);
`font_px` how small a wide matrix's numbers get. The page writes the breakdowns itself (live/picture.js).
"""

from . import colors

# Layout and the theme's colours (look.colors.theme_css); each cell's colours are written inline by the page
# (live/colors.js). The live explorer and the step widgets use these classes.
CSS = colors.theme_css() + """
.al-view{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR","Noto Sans CJK KR",sans-serif;
color:var(--al-fg);line-height:1.25;max-width:100%;min-width:0}
.al-row{display:flex;flex-wrap:wrap;gap:14px 18px;align-items:flex-start;margin:6px 0 10px;max-width:100%}
.al-section{margin:8px 0 2px;font-weight:600;font-size:13px}
.al-hm{display:inline-block;max-width:100%;min-width:0}
.al-title{font-weight:600;font-size:12.5px;margin:0 0 3px;white-space:normal;overflow-wrap:anywhere}
.al-grid{border-collapse:separate;border-spacing:1px;font-variant-numeric:tabular-nums}
.al-grid td,.al-grid th{padding:0 3px;text-align:center;white-space:nowrap;height:1.75em;min-width:2.2em}
.al-grid th{font-weight:400;color:var(--al-muted);font-size:.9em}
.al-grid th.al-rowcap{text-align:right;color:var(--al-muted);font-size:.85em;padding-right:4px}
.al-grid th.al-colcap{color:var(--al-muted);font-size:.85em;text-align:left}
.al-grid td.al-bar{height:4px;padding:0}
.al-grid.al-compact td,.al-grid.al-compact th.al-col{min-width:0;padding:0;font-size:8px;overflow:hidden}
.al-grid td.al-masked{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.16) 0 2px,transparent 2px 6px)}
.al-grid td.al-hl{outline:2.5px solid var(--al-strong);outline-offset:-2px;font-weight:700}
.al-grid tr.al-hlrow td{box-shadow:inset 0 2px 0 var(--al-strong),inset 0 -2px 0 var(--al-strong)}
.al-grid tr.al-hlrow th{color:var(--al-strong);font-weight:700}
.al-note{font-size:12.5px;margin:4px 0;font-variant-numeric:tabular-nums;white-space:normal;overflow-wrap:anywhere}
.al-breakdown{max-width:100%;min-width:0}
.al-bd{border-collapse:collapse;font-size:12.5px;font-variant-numeric:tabular-nums;margin:2px 0 6px}
.al-bd td,.al-bd th{padding:2px 8px;text-align:right;border-bottom:1px solid var(--al-faint);white-space:nowrap}
.al-bd th{font-weight:600;color:var(--al-muted);text-align:left}
.al-bd tr.al-total td,.al-bd tr.al-total th{border-top:1.5px solid var(--al-rule);font-weight:700}
.al-swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:4px;vertical-align:-1px}
"""
def font_px(n_cols):
    """Font size so that every number still fits: smaller as the matrix grows wider."""
    return 13 if n_cols <= 4 else 12 if n_cols <= 8 else 11 if n_cols <= 12 else 10 if n_cols <= 16 else 9
