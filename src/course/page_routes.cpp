// The pages: the course's own (web/course/, built in) at /, and the games viewer of `arena web`
// at /view/ (its data comes from /view/api/, game_routes.cpp).
#include "course/course_assets.hpp"
#include "course/routes.hpp"
#include "view/assets.hpp"
#include "view/web_app.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

template <typename Assets>
bool send_asset(const Assets& assets, const std::string& name, httplib::Response& res) {
  for (const auto& a : assets) {
    if (a.name != name) continue;
    res.set_content(std::string(a.body), std::string(view::content_type_for(a.name)).c_str());
    return true;
  }
  return false;
}

}  // namespace

void add_page_routes(httplib::Server& server, CourseContext&) {
  server.Get(R"(/|/index\.html|/course\.(js|css))", [](const httplib::Request& req,
                                                       httplib::Response& res) {
    const std::string name =
        req.path == "/" || req.path == "/index.html" ? "course.html" : req.path.substr(1);
    if (!send_asset(course_assets(), name, res)) web::send_error(res, 404, "no such page");
  });
  server.Get(
      R"(/view/([a-z_]*\.?[a-z]*))", [](const httplib::Request& req, httplib::Response& res) {
        const std::string name = req.matches[1].str().empty() ? "index.html" : req.matches[1].str();
        if (!send_asset(view::web_assets(), name, res)) web::send_error(res, 404, "no such page");
      });
  server.Get("/view",
             [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/view/"); });
}

}  // namespace arena::course
