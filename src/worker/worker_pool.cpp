#include "worker/worker_pool.hpp"

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cmath>
#include <utility>

#include "core/cpu_time.hpp"
#include "core/uuid.hpp"
#include "endpoint/tool_calls.hpp"
#include "records/raw_exchange.hpp"
#include "timing/waiter.hpp"
#include "transport/plain_read.hpp"
#include "worker/request_state.hpp"
#include "worker/response_collector.hpp"
#include "worker/video_download.hpp"

namespace inferperf::worker {

namespace asio = boost::asio;
using core::RequestErrorKind;

bool threads_reply(const dataset::Dataset& ds, const timing::Credit& credit) {
  if (credit.final_turn()) return false;
  const auto& conv = ds.conversations[credit.conversation_index];
  return conv.context_mode == dataset::ContextMode::kDeltasWithoutResponses;
}

Worker::Worker(int id, const RequestPlan& plan, const core::Clock& clock,
               records::RecordQueue& queue, const WorkerEvents& events, AheadGate& ahead)
    : id_(id),
      plan_(plan),
      clock_(clock),
      queue_(queue),
      events_(events),
      held_(
          io_, clock, ahead, [this](timing::Credit c) { launch(std::move(c)); },
          [this] { in_flight_.fetch_sub(1, std::memory_order_relaxed); }) {
  for (const Target& t : plan_.targets) {
    heads_.push_back(request_head(plan_, t));
    pools_.push_back(std::make_unique<transport::ConnectionPool>(
        io_.get_executor(), t.url, plan_.tls_context, plan_.transport.unix_socket));
    pools_.back()->set_reuse(plan_.connection_reuse != ConnectionReuse::kNever);
    if (t.behaviour) pools_.back()->set_behaviour(t.behaviour);
    pools_.back()->set_local_addresses(plan_.transport.local_addresses,
                                       static_cast<std::size_t>(id));
  }
}

Worker::~Worker() {
  stop();
}

void Worker::start() {
  std::lock_guard lock(life_mu_);
  started_ = true;
  asio::post(io_, [this] {
    probe_due_ = std::chrono::steady_clock::now() + kLoopProbePeriod;
    arm_probe();
  });
  thread_ = std::thread([this] {
    tid_.store(core::this_thread_tid(), std::memory_order_relaxed);
    transport::set_quiet_reads_checked(true);  // arm_probe runs the check on this thread
    // Held credits are timed on this thread: its timers wake within microseconds.
    timing::PreciseWaiter::tighten_timer_slack();
    auto guard = asio::make_work_guard(io_);
    io_.run();
  });
  native_ = thread_.native_handle();
}

void Worker::arm_probe() {
  probe_.expires_at(probe_due_);
  probe_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    const auto now = std::chrono::steady_clock::now();
    loop_lag_.record(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - probe_due_).count());
    probe_due_ += kLoopProbePeriod;
    // After a stall longer than a period the missed ticks are not replayed as a burst of
    // zero-lag samples: the next one is a full period away.
    if (probe_due_ <= now) probe_due_ = now + kLoopProbePeriod;
    if (++probe_ticks_ == kQuietReadCheckTicks) {
      probe_ticks_ = 0;
      // Half the period as the age: a read parked just after one check is looked at by the
      // second after it, whatever the ticks' jitter.
      transport::check_quiet_reads(
          io_, clock_.now_ns(),
          std::chrono::duration_cast<std::chrono::nanoseconds>(kQuietReadCheckPeriod).count() / 2);
    }
    arm_probe();
  });
}

WorkerLoad Worker::load() const {
  WorkerLoad l;
  {
    std::lock_guard lock(life_mu_);
    if (started_) {
      l.cpu_ns = core::thread_cpu_ns(native_);
      l.sched = core::thread_sched(tid_.load(std::memory_order_relaxed));
    }
  }
  l.loop_lag = loop_lag_.snapshot();
  l.in_flight = in_flight();
  return l;
}

void Worker::stop() {
  {
    std::lock_guard lock(life_mu_);
    if (!started_) return;
    started_ = false;
  }
  asio::post(io_, [this] {
    for (auto& p : pools_) p->close_all();
    io_.stop();
  });
  if (thread_.joinable()) thread_.join();
}

void Worker::submit(timing::Credit credit) {
  in_flight_.fetch_add(1, std::memory_order_relaxed);
  asio::post(io_, [this, c = std::move(credit)]() mutable { launch(std::move(c)); });
}

void Worker::submit_ahead(timing::Credit credit, timing::WithdrawListener& listener) {
  in_flight_.fetch_add(1, std::memory_order_relaxed);
  asio::post(io_, [this, c = std::move(credit), &listener]() mutable {
    held_.hold(std::move(c), listener);
  });
}

void Worker::withdraw_ahead() {
  asio::post(io_, [this] { held_.withdraw_if_shut(); });
}

void Worker::cancel_all(std::string message) {
  asio::post(io_, [this, message = std::move(message)] {
    timeouts_.for_each([&](transport::CancelHandle& handle) {
      handle.cancel(RequestErrorKind::kRequestCancellation, message, 499);
    });
  });
}

const std::string& Worker::body_for(const timing::Credit& credit) {
  const dataset::Dataset& ds = *plan_.dataset;
  const auto ci = static_cast<std::size_t>(credit.conversation_index);
  const auto& conv = ds.conversations[ci];
  const auto& turn = conv.turns[static_cast<std::size_t>(credit.turn_index)];
  // Warmup bodies carry the warmup marker (AIPerf 0.11, #1040), so they are built here per
  // request; the prebuilt bodies are the profiling ones, sent unchanged.
  const bool warmup = credit.phase == records::Phase::kWarmup;
  const std::string* prebuilt =
      !warmup && credit.turn_index == 0 && ci < plan_.bodies.size() && !plan_.bodies[ci].empty()
          ? &plan_.bodies[ci]
          : nullptr;
  if (!accumulates(credit)) {
    if (prebuilt) return *prebuilt;
    std::vector<dataset::Turn> alone;
    alone.push_back(dataset::materialize(ds, turn));  // moved in: a trace prompt is not copied
    body_scratch_ = build_body_text(plan_, conv, alone, warmup);
    return body_scratch_;
  }
  auto& history = histories_[credit.session];
  // A turn that re-sends the whole context starts afresh; so does turn 0: session numbers restart
  // with every phase, and a session cut short in warmup must not leave its turns in front of a
  // profiling session with the same number.
  if (turn.reset_context || credit.turn_index == 0) history.clear();
  history.push_back(dataset::materialize(ds, turn));
  if (prebuilt) return *prebuilt;
  try {
    body_scratch_ = build_body_text(plan_, conv, history, warmup);
    return body_scratch_;
  } catch (...) {
    history.pop_back();  // the turn was never sent
    throw;
  }
}

asio::awaitable<std::optional<transport::ExchangeError>> Worker::poll_video_job(
    transport::ConnectionPool& pool, const Target& target, ResponseCollector& collector,
    records::RequestRecord& rec, transport::CancelHandle& cancel) {
  asio::steady_timer wait(io_);
  // The job is done when a poll says completed (a content response) or failed (an error).
  while (collector.job() && collector.job()->status != "completed" && !rec.error) {
    wait.expires_after(std::chrono::nanoseconds(
        static_cast<std::int64_t>(std::llround(plan_.video_poll_interval_s * 1e9))));
    boost::system::error_code ec;
    co_await wait.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (cancel.cancelled()) co_return cancel.reason();
    const std::string get =
        serialize_get(plan_, target, video_job_path(target, collector.job()->id), rec.x_request_id,
                      rec.x_correlation_id);
    collector.finish_raw(clock_.now_ns());  // each answer is its own raw response
    collector.restart();
    transport::ExchangeTimings t;
    transport::ExchangeRequest exchange{get};
    exchange.max_body_bytes = plan_.max_response_bytes;
    auto err = co_await transport::http_exchange(pool, exchange, collector, clock_, t, cancel);
    if (err) co_return err;
    collector.finish(t.end_ns ? t.end_ns : clock_.now_ns());
  }
  if (!plan_.download_video_content || !collector.job() || rec.error) co_return std::nullopt;
  // --download-video-content: the video is part of the request (AIPerf 0.11).
  const endpoint::VideoJob& job = *collector.job();
  const auto path = video_content_path(target, video_job_path(target, job.id), job.url);
  if (!path) {
    rec.error = records::ErrorInfo{500, core::RequestErrorType::from_name("VideoDownloadError"),
                                   "video " + job.id + ": its url is on another server"};
    co_return std::nullopt;
  }
  const std::string get =
      serialize_get(plan_, target, *path, rec.x_request_id, rec.x_correlation_id);
  auto failed = co_await download_video(pool, get, clock_, cancel, 0, job.id);
  if (failed && cancel.cancelled()) co_return cancel.reason();
  if (failed) rec.error = std::move(*failed);
  co_return std::nullopt;
}

bool Worker::accumulates(const timing::Credit& credit) const {
  const auto& conv =
      plan_.dataset->conversations[static_cast<std::size_t>(credit.conversation_index)];
  return credit.num_turns > 1 &&
         (conv.context_mode == dataset::ContextMode::kDeltasWithoutResponses ||
          conv.context_mode == dataset::ContextMode::kDeltasWithResponses);
}

namespace {

// The exchange's timings, as the record carries them (end_ns excepted: the caller knows whether
// the exchange's end is the request's end).
void copy_exchange_timings(records::RequestRecord& rec, const transport::ExchangeTimings& t) {
  rec.connect_start_ns = t.connect_start_ns;
  rec.connect_end_ns = t.connect_end_ns;
  rec.tls_handshake_start_ns = t.tls_handshake_start_ns;
  rec.tls_handshake_end_ns = t.tls_handshake_end_ns;
  rec.send_start_ns = t.send_start_ns;
  rec.send_end_ns = t.send_end_ns;
  rec.headers_ns = t.headers_ns;
  rec.first_byte_ns = t.first_byte_ns;
  rec.connection_reused = t.connection_reused;
  rec.connection_retries = t.connection_retries;
  // A retried request is timed from the send that counted (connection acquisition included);
  // intended_ns and issued_ns keep the schedule's view.
  if (t.connection_retries > 0 && t.retry_start_ns > 0) rec.start_ns = t.retry_start_ns;
  rec.bytes_sent = t.bytes_sent;
  rec.bytes_received = t.bytes_received;
  rec.reads = t.reads;
  rec.kernel_stamped_reads = t.kernel_stamped_reads;
}

// The record's outcome once rec.end_ns is set: the exchange's error (unless the response already
// gave one), else the collected response finished; a response without content is an error too.
void settle_outcome(records::RequestRecord& rec, const std::optional<transport::ExchangeError>& err,
                    ResponseCollector& collector, bool video_polled) {
  if (err && !rec.error) {
    rec.error = records::ErrorInfo{err->code, err->type, err->message};
    rec.was_cancelled = err->type.is(RequestErrorKind::kRequestCancellation);
  } else if (!err && !video_polled) {
    collector.finish(rec.end_ns);
  }
  if (rec.raw) collector.finish_raw(rec.end_ns);
  if (!rec.error && rec.content_events.empty()) {
    rec.error = records::ErrorInfo{std::nullopt, RequestErrorKind::kInvalidInferenceResult,
                                   "No responses with actual content were received"};
  }
}

}  // namespace

void Worker::start_record(const timing::Credit& credit, records::RequestRecord& rec) const {
  rec.phase = credit.phase;
  rec.credit_num = credit.id;
  rec.x_request_id = core::uuid4();
  rec.x_correlation_id = credit.x_correlation_id;
  const auto& conv = plan_.dataset->conversations[credit.conversation_index];
  rec.conversation_id = conv.session_id;
  rec.turn_index = credit.turn_index;
  rec.worker_id = id_;
  rec.intended_ns = credit.intended_ns;
  rec.issued_ns = credit.issued_ns;
  const dataset::Turn& turn = conv.turns[static_cast<std::size_t>(credit.turn_index)];
  rec.requested_osl = turn.max_tokens;
  rec.input_images = std::count_if(turn.media.begin(), turn.media.end(), [](const auto& m) {
    return m.kind == dataset::MediaItem::Kind::kImage;
  });
}

std::optional<std::string> Worker::build_request(const timing::Credit& credit, std::size_t target,
                                                 records::RequestRecord& rec) {
  const std::string* body = nullptr;
  std::string request;
  try {
    body = &body_for(credit);
    // A multipart body is encoded here: a file that is not base64 is this request's error.
    request =
        serialize_request(plan_, heads_[target], *body, rec.x_request_id, rec.x_correlation_id);
  } catch (const std::exception& e) {
    // A body that cannot be built (a payload template rendering invalid JSON) is a counted
    // error record, never a crash.
    rec.start_ns = rec.end_ns = clock_.now_ns();
    rec.error = records::ErrorInfo{std::nullopt, RequestErrorKind::kRequestBuild, e.what()};
    if (credit.final_turn()) {
      histories_.erase(credit.session);
      if (plan_.connection_reuse == ConnectionReuse::kStickyUserSessions)
        pools_[target]->drop(credit.session);
    }
    return std::nullopt;
  }
  if (plan_.capture_raw && credit.phase == records::Phase::kProfiling) {
    auto raw = std::make_shared<records::RawExchange>();
    raw->request_headers = records::redacted_request_headers(request);
    raw->payload = *body;
    rec.raw = std::move(raw);
  }
  return request;
}

void Worker::thread_reply(const timing::Credit& credit, const records::RequestRecord& rec,
                          const ResponseCollector& collector) {
  if (credit.final_turn()) {
    histories_.erase(credit.session);
    return;
  }
  // kDeltasWithResponses: the file supplies the assistant messages, live replies are not
  // threaded in.
  if (!threads_reply(*plan_.dataset, credit) || rec.error) return;
  // The next turn carries this reply (its tool calls included); reasoning is dropped, failed
  // replies add nothing.
  auto assistant = endpoint::assistant_history_turn(
      collector.content_text(), collector.text_without_tool_arguments(), collector.tool_calls());
  if (assistant) histories_[credit.session].push_back(std::move(*assistant));
}

void Worker::complete(const timing::Credit& credit, records::RequestRecord&& rec) {
  queue_.push(std::move(rec));
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
  if (returns_.empty()) asio::post(io_, [this] { flush_returns(); });
  returns_.push_back({credit.id, credit.session});
  held_.release_if_due();  // an arrival due during this batch of completions goes now
}

void Worker::flush_returns() {
  // The swap keeps both vectors' capacity: no allocation per turn once warm.
  returns_sent_.swap(returns_);
  events_.returned(returns_sent_);
  returns_sent_.clear();
}

// One coroutine per request, its only frame besides the exchange's: building the request and the
// record, the deadlines and the history update are plain functions, so only the awaits are here.
// What lives across the awaits is in a RequestState from the worker's own blocks
// (worker/request_state.hpp), which keeps the frame small enough for Asio to recycle.
void Worker::launch(timing::Credit credit) {
  auto task = [this, credit = std::move(credit)]() -> asio::awaitable<void> {
    const RequestStatePool::Handle state = states_.make(timeouts_);
    records::RequestRecord& rec = state->rec;
    start_record(credit, rec);
    const auto target = static_cast<std::size_t>(credit.url_index) % plan_.targets.size();
    transport::ConnectionPool& pool = *pools_[target];
    const std::optional<std::string> request = build_request(credit, target, rec);
    if (!request) {
      complete(credit, std::move(rec));
      co_return;
    }

    RequestDeadlines& deadlines = state->deadlines;
    deadlines.arm_timeout(plan_.request_timeout_s);
    auto on_sent = [&deadlines, &credit] { deadlines.arm_cancellation(credit.cancel_after_ns); };

    ResponseCollector& collector = state->collector.emplace(*plan_.endpoint, rec);
    collector.max_sse_event_bytes(plan_.max_sse_event_bytes);
    collector.keep_reply(threads_reply(*plan_.dataset, credit));
    if (events_.first_token) {
      collector.on_first_content = [this, id = credit.id] { events_.first_token(id); };
    }
    transport::ExchangeTimings& t = state->t;
    bool video_polled = false;
    rec.start_ns = clock_.now_ns();  // before connection acquisition, as AIPerf's start_perf_ns
    // A named request, not a temporary in the co_await expression: GCC 12 destroys such
    // temporaries twice when they own memory (its std::function here).
    transport::ExchangeRequest exchange{*request, on_sent};
    const bool sticky = plan_.connection_reuse == ConnectionReuse::kStickyUserSessions;
    if (sticky) exchange.pool_key = credit.session;
    exchange.max_body_bytes = plan_.max_response_bytes;
    auto err =
        co_await transport::http_exchange(pool, exchange, collector, clock_, t, deadlines.cancel);
    if (!err && plan_.endpoint->info().output == endpoint::OutputKind::kVideo) {
      // video_generation: the job the POST created is polled under the same timeout and
      // cancellation.
      collector.finish(t.end_ns ? t.end_ns : clock_.now_ns());
      if (!rec.error && collector.job()) {
        err =
            co_await poll_video_job(pool, plan_.targets[target], collector, rec, deadlines.cancel);
      }
      video_polled = true;
    }
    deadlines.disarm();
    if (sticky && credit.final_turn()) pool.drop(credit.session);  // the user leaves
    rec.end_ns = video_polled || !t.end_ns ? clock_.now_ns() : t.end_ns;
    copy_exchange_timings(rec, t);
    settle_outcome(rec, err, collector, video_polled);
    if (accumulates(credit)) thread_reply(credit, rec, collector);
    complete(credit, std::move(rec));
  };
  asio::co_spawn(io_, std::move(task), asio::detached);
}

WorkerPool::WorkerPool(int workers, const RequestPlan& plan, const core::Clock& clock,
                       records::RecordQueue& queue, WorkerEvents events)
    : events_(std::move(events)), open_sessions_(static_cast<std::size_t>(std::max(workers, 0))) {
  for (int i = 0; i < workers; ++i) {
    workers_.push_back(std::make_unique<Worker>(i, plan, clock, queue, events_, ahead_));
  }
}

void WorkerPool::start() {
  for (auto& w : workers_) w->start();
}

void WorkerPool::dispatch(timing::Credit credit) {
  const std::size_t w = route(credit);
  workers_[w]->submit(std::move(credit));
}

void WorkerPool::dispatch_ahead(timing::Credit credit, timing::WithdrawListener& listener) {
  const std::size_t w = route(credit);
  ahead_.held.fetch_add(1);
  workers_[w]->submit_ahead(std::move(credit), listener);
}

void WorkerPool::withdraw_ahead(bool everything) {
  ahead_.shut(everything ? AheadGate::kEverything : core::SteadyClock::steady_now_ns());
  for (auto& w : workers_) w->withdraw_ahead();
}

std::size_t WorkerPool::route(const timing::Credit& credit) {
  if (credit.turn_index > 0) {
    // Sticky: a later turn goes to the worker holding its session's history.
    auto it = session_worker_.find(credit.session);
    const std::size_t w = it != session_worker_.end() ? it->second : 0;
    if (credit.final_turn() && it != session_worker_.end()) {
      --open_sessions_[it->second];
      session_worker_.erase(it);
    }
    return w;
  }
  // Least in-flight first. A worker counts a request out of flight when it completes, before the
  // issuer has its return, so an equal count can hide a session's next turn on its way back to
  // that worker: among equals the one with fewer open sessions wins (else that worker would take
  // the new session and its own next turn at once: one more connection, one idle worker), then
  // round-robin so load spreads over equal workers.
  std::size_t best = next_ % workers_.size();
  int best_load = workers_[best]->in_flight();
  for (std::size_t k = 1; k < workers_.size(); ++k) {
    std::size_t i = (next_ + k) % workers_.size();
    int load = workers_[i]->in_flight();
    if (load < best_load || (load == best_load && open_sessions_[i] < open_sessions_[best])) {
      best = i;
      best_load = load;
    }
  }
  next_ = best + 1;
  if (!credit.final_turn()) {
    auto [it, added] = session_worker_.try_emplace(credit.session, best);
    if (!added) --open_sessions_[std::exchange(it->second, best)];
    ++open_sessions_[best];
  }
  return best;
}

void WorkerPool::begin_phase() {
  session_worker_.clear();
  std::fill(open_sessions_.begin(), open_sessions_.end(), 0);
}

std::vector<WorkerLoad> WorkerPool::loads() const {
  std::vector<WorkerLoad> out;
  out.reserve(workers_.size());
  for (const auto& w : workers_) out.push_back(w->load());
  return out;
}

void WorkerPool::cancel_all(const std::string& message) {
  for (auto& w : workers_) w->cancel_all(message);
}

void WorkerPool::stop() {
  for (auto& w : workers_) w->stop();
}

}  // namespace inferperf::worker
