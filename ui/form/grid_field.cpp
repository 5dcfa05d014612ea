#include "form/grid_field.h"

#include <QRegularExpression>
#include <cmath>

#include "charts/chart_export.h"
#include "form/number_field.h"

namespace dplab::ui {

using experiment::ParamSpec;

namespace {

std::optional<std::vector<double>> parseNumbers(const QString& text, QString* error) {
  std::vector<double> values;
  const QStringList parts =
      text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
  for (const QString& part : parts) {
    bool ok = false;
    const double v = part.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
      *error = QObject::tr("'%1' is not a number").arg(part);
      return std::nullopt;
    }
    values.push_back(v);
  }
  return values;
}

}  // namespace

std::optional<ParamSpec> parseParamSpec(const QString& raw, QString* error) {
  const QString text = raw.trimmed();
  QString local_error;
  if (!error) error = &local_error;
  if (text.isEmpty()) {
    *error = QObject::tr("empty grid: give at least one value");
    return std::nullopt;
  }
  static const QRegularExpression call(QStringLiteral("^(\\w+)\\s*\\((.*)\\)$"));
  const QRegularExpressionMatch m = call.match(text);
  ParamSpec spec;
  if (m.hasMatch()) {
    const QString fn = m.captured(1).toLower();
    auto args = parseNumbers(m.captured(2), error);
    if (!args) return std::nullopt;
    if (fn == QLatin1String("logspace")) {
      if (args->size() != 3) {
        *error = QObject::tr("logspace needs (low exponent, high exponent, count)");
        return std::nullopt;
      }
      const double n = (*args)[2];
      if (n < 1 || std::floor(n) != n) {
        *error = QObject::tr("logspace count must be a whole number ≥ 1");
        return std::nullopt;
      }
      if ((*args)[0] > (*args)[1]) {
        *error = QObject::tr("logspace: low exponent must be ≤ high exponent");
        return std::nullopt;
      }
      spec.kind = ParamSpec::Kind::kLog10Grid;
      spec.low = (*args)[0];
      spec.high = (*args)[1];
      spec.num = static_cast<int>(n);
      return spec;
    }
    if (fn == QLatin1String("uniform") || fn == QLatin1String("loguniform")) {
      if (args->size() != 2 || !((*args)[0] < (*args)[1])) {
        *error = QObject::tr("%1 needs (low, high) with low < high").arg(fn);
        return std::nullopt;
      }
      if (fn == QLatin1String("loguniform") && (*args)[0] <= 0) {
        *error = QObject::tr("loguniform needs a low bound > 0");
        return std::nullopt;
      }
      spec.kind =
          fn == QLatin1String("uniform") ? ParamSpec::Kind::kUniform : ParamSpec::Kind::kLogUniform;
      spec.low = (*args)[0];
      spec.high = (*args)[1];
      return spec;
    }
    *error = QObject::tr("unknown function '%1' (use logspace, uniform or loguniform)").arg(fn);
    return std::nullopt;
  }
  auto values = parseNumbers(text, error);
  if (!values) return std::nullopt;
  if (values->empty()) {
    *error = QObject::tr("empty grid: give at least one value");
    return std::nullopt;
  }
  spec.kind = ParamSpec::Kind::kValues;
  spec.values = *values;
  return spec;
}

QString formatParamSpec(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamSpec::Kind::kValues: {
      QStringList parts;
      for (double v : spec.values) parts << formatNumber(v);
      return parts.join(QStringLiteral(", "));
    }
    case ParamSpec::Kind::kLog10Grid:
      return QStringLiteral("logspace(%1, %2, %3)")
          .arg(formatNumber(spec.low), formatNumber(spec.high))
          .arg(spec.num);
    case ParamSpec::Kind::kUniform:
      return QStringLiteral("uniform(%1, %2)").arg(formatNumber(spec.low), formatNumber(spec.high));
    case ParamSpec::Kind::kLogUniform:
      return QStringLiteral("loguniform(%1, %2)")
          .arg(formatNumber(spec.low), formatNumber(spec.high));
  }
  return QString();
}

GridField::GridField(const QString& help, ValueRule rule, bool required, QWidget* parent)
    : QLineEdit(parent), help_(help), rule_(std::move(rule)), required_(required) {
  help_ +=
      tr("\nSyntax: a list \"0.001, 0.01\", a log grid \"logspace(-4, -1, 4)\" = 10^-4…10^-1, "
         "or for random search \"uniform(a, b)\" / \"loguniform(a, b)\".");
  if (!required_) setPlaceholderText(tr("default"));
  setToolTip(help_);
  revalidate();  // a required grid starts empty: marked at once, not only after typing
  connect(this, &QLineEdit::textChanged, this, [this] {
    revalidate();
    emit edited();
  });
}

void GridField::setSpec(const std::optional<ParamSpec>& spec) {
  setText(spec ? formatParamSpec(*spec) : QString());
}

std::optional<ParamSpec> GridField::spec() const {
  if (text().trimmed().isEmpty()) return std::nullopt;
  return parseParamSpec(text(), nullptr);
}

bool GridField::revalidate() {
  QString error;
  if (text().trimmed().isEmpty()) {
    if (required_) error = tr("empty grid: give at least one value");
  } else if (auto spec = parseParamSpec(text(), &error)) {
    std::vector<double> check;
    if (spec->kind == ParamSpec::Kind::kValues) {
      check = spec->values;
    } else if (spec->kind == ParamSpec::Kind::kLog10Grid) {
      check = {std::pow(10.0, spec->low), std::pow(10.0, spec->high)};
    } else {
      check = {spec->low, spec->high};
    }
    for (double v : check) {
      if (rule_) error = rule_(v);
      if (!error.isEmpty()) {
        error = tr("value %1 %2").arg(formatNumber(v), error);
        break;
      }
    }
  }
  error_ = error;
  markField(this, help_, error_);
  return error_.isEmpty();
}

}  // namespace dplab::ui
