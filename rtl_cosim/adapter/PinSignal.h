// A channel for one pin of a Verilated SystemC model that the adapter drives and samples itself:
// write() takes effect at once and read() returns the last value written, with no request-update
// cycle and no events. The adapter clocks the model by calling its evaluation directly (see
// RtlLdsBankArbiter.h for why), so the model must see a value as soon as it is written and its
// outputs must be readable as soon as it has evaluated; an sc_signal would only show them after
// the kernel's update phase.
#pragma once

#include <systemc>

namespace vgpu::rtl {

template <typename T>
class PinSignal : public sc_core::sc_signal_inout_if<T> {
 public:
  const T& read() const override { return value_; }
  const T& get_data_ref() const override { return value_; }
  void write(const T& value) override { value_ = value; }
  bool event() const override { return false; }
  // Never notified: the kernel never schedules the model's evaluation through these pins.
  const sc_core::sc_event& value_changed_event() const override { return never_; }
  const sc_core::sc_event& default_event() const override { return never_; }

 private:
  T value_{};
  sc_core::sc_event never_;
};

template <>
class PinSignal<bool> : public sc_core::sc_signal_inout_if<bool> {
 public:
  const bool& read() const override { return value_; }
  const bool& get_data_ref() const override { return value_; }
  void write(const bool& value) override { value_ = value; }
  bool event() const override { return false; }
  const sc_core::sc_event& value_changed_event() const override { return never_; }
  const sc_core::sc_event& default_event() const override { return never_; }
  const sc_core::sc_event& posedge_event() const override { return never_; }
  const sc_core::sc_event& negedge_event() const override { return never_; }
  bool posedge() const override { return false; }
  bool negedge() const override { return false; }

 private:
  bool value_ = false;
  sc_core::sc_event never_;
};

}  // namespace vgpu::rtl
