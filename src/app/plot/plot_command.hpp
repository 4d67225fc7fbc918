// `inferperf plot`: the plot module draws the charts; with --mlflow-upload their PNGs then go to
// an MLflow run (here, in the app, because the plot module does not speak MLflow).
#pragma once
#include "plot/plot.hpp"

namespace inferperf::app {

// Exit code: 2 when the upload has no tracking server or run (before anything is drawn), the
// plot's own code when drawing fails, 1 when an upload fails (the charts are written).
int run_plot_command(const plot::PlotOptions& options);

}  // namespace inferperf::app
