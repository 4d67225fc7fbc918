// One request from parse to answer: the access log, GET routes (aux_routes.hpp), the POST route
// table, the request counters, the gates every inference request passes (API key, readiness,
// strict model) and the route's answer (answers.hpp).
#pragma once
#include <boost/asio/awaitable.hpp>

#include "connection.hpp"

namespace inferperf::mock::detail {

// Answers x.req; returns whether the connection may be kept open.
boost::asio::awaitable<bool> answer_request(Exchange& x);

}  // namespace inferperf::mock::detail
