// fitSideColumn (issue #44): a column of settings beside a page's charts takes its preferred
// width only while the charts keep `least_rest` px beside it; on a narrower page it narrows (down
// to `least_width`) and the charts keep theirs. At 1024 px the form leaves a result page about
// 670 px: fixed 420-px settings columns left the OSO Figure 4 and the sparse DP charts 130–210 px
// of plot, and the "Accountants disagree" column (whose wrapped notes asked for all of it) left
// its charts none. The column should scroll vertically (a QScrollArea): its content gets
// taller as it narrows.
#pragma once

class QScrollArea;
class QWidget;

namespace dplab::ui {

// Width of the column: clamp(page width − least_rest, least_width, preferred), recomputed on
// every resize of `page`.
void fitSideColumn(QWidget* page, QWidget* column, int preferred, int least_width, int least_rest);

// `content` in a frameless scroll area that scrolls vertically only (the side column).
QScrollArea* sideScrollArea(QWidget* content, QWidget* parent);

// A side column of settings and notes: its width where there is room, its least width.
inline constexpr int kSideColumnWidth = 340;
inline constexpr int kLeastSideColumnWidth = 250;

// The least width of a chart column beside settings: a 250-px plot plus the y axis' ticks and
// label (up to ~90 px), the right margin and the page's (measured at 1024 px: 120–160 px).
inline constexpr int kLeastChartColumnWidth = 410;

}  // namespace dplab::ui
