#include "form/grid_field.h"

#include "experiment/param_text.h"
#include "form/number_field.h"

namespace dplab::ui {

GridField::GridField(const QString& help, experiment::Param param, bool required, QWidget* parent)
    : QLineEdit(parent), help_(help), param_(param), required_(required) {
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

void GridField::setSpec(const std::optional<experiment::ParamSpec>& spec) {
  setText(spec ? QString::fromStdString(experiment::format_param_text(*spec)) : QString());
}

std::optional<experiment::ParamSpec> GridField::spec() const {
  return spec_;
}

bool GridField::revalidate() {
  spec_.reset();
  error_.clear();
  if (text().trimmed().isEmpty()) {
    if (required_) error_ = tr("empty grid: give at least one value");
  } else {
    try {
      spec_ = experiment::parse_param_text(text().toStdString(), param_,
                                           experiment::param_name(param_));
    } catch (const std::exception& e) {
      error_ = QString::fromStdString(e.what());
    }
  }
  markField(this, help_, error_);
  return error_.isEmpty();
}

}  // namespace dplab::ui
