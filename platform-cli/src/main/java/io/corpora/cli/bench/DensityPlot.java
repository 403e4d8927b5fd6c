package io.corpora.cli.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The resources-vs-tenants plot of a density run: open files and threads (counts) beside RSS and live heap (MB), each
 * against the tenants provisioned, in one PNG of two panels.
 */
final class DensityPlot {

    private DensityPlot() {}

    static void write(List<DensityBench.Row> rows, String subtitle, Path png) throws IOException {
        XYChart counts = chart("open files and threads (" + subtitle + ")", "count");
        series(counts, "open files", rows, r -> r.resources().openFiles());
        series(counts, "threads", rows, r -> r.resources().threads());
        XYChart memory = chart("RSS and live heap (" + subtitle + ")", "MB");
        series(memory, "RSS", rows, DensityBench.Row::rssMb);
        series(memory, "live heap (after full GC)", rows, DensityBench.Row::liveHeapMb);
        String name = png.toString();
        BitmapEncoder.saveBitmap(List.of(counts, memory), 1, 2, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String unit) {
        XYChart chart = new XYChartBuilder().width(700).height(500).title(title).xAxisTitle("tenants provisioned").yAxisTitle(unit).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisMin(0.0).setXAxisMin(0.0);
        return chart;
    }

    private static void series(XYChart chart, String name, List<DensityBench.Row> rows, ToDoubleFunction<DensityBench.Row> value) {
        chart.addSeries(name, rows.stream().map(r -> (double) r.tenants()).toList(), rows.stream().map(value::applyAsDouble).toList())
                .setMarker(SeriesMarkers.CIRCLE);
    }
}
