//! The pack bench's strings, English and Chinese (looked up through `i18n::tr`).

/// English and Chinese for a key this table owns; `None` leaves it to the other tables.
pub fn strings(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "bench.tools" => ("Events and intents", "事件与意图"),
        "bench.inject" => ("Send event", "发送事件"),
        "bench.bad_json" => ("The payload is not JSON", "载荷不是 JSON"),
        "bench.execute" => (
            "Intents reach the table (off: only logged)",
            "意图发送到牌桌（关闭：仅记录）",
        ),
        "bench.logged_only" => ("logged only", "仅记录"),
        "bench.title" => ("Pack bench", "扩展包工作台"),
        "bench.light" => ("Light", "浅色"),
        "bench.dark" => ("Dark", "深色"),
        "bench.vars" => ("Variables", "变量"),
        "bench.var_id" => ("new variable id", "新变量 id"),
        "bench.var_value" => ("value", "值"),
        "bench.var_add" => ("Add", "添加"),
        "bench.var_hidden" => ("keeper only", "仅主持人"),
        "bench.open" => ("Open a pack folder…", "打开扩展包文件夹…"),
        "bench.as_keeper" => ("As keeper", "以主持人查看"),
        "bench.as_player" => ("As player", "以玩家查看"),
        "bench.watching" => ("Watching for changes", "正在监视更改"),
        "bench.reloaded" => ("Reloads:", "已重新加载："),
        "bench.stale" => (
            "The pack does not load; the panels below are the last good version.",
            "扩展包无法加载；下面显示的是上一个可用版本。",
        ),
        "bench.not_in_manifest" => ("not in this viewer's manifest:", "不在此视角的清单中："),
        "bench.audience_keeper" => ("audience is keeper only", "受众仅为主持人"),
        "bench.audience_players" => ("audience is players only", "受众仅为玩家"),
        "bench.audience_other" => ("not sent to this viewer", "未发送给此视角"),
        "bench.engine" => ("The engine's verdict", "引擎的判定"),
        "bench.engine.check" => ("Check with the engine", "用引擎检查"),
        "bench.engine.build" => ("Build pack…", "构建扩展包…"),
        "bench.engine.running" => ("The engine's packer is running…", "引擎的打包器正在运行…"),
        "bench.engine.by" => ("Judged by", "判定引擎"),
        "bench.engine.accepts" => ("builds it:", "可以构建："),
        "bench.engine.refuses" => ("refuses it", "拒绝构建"),
        "bench.engine.ours_accepts" => ("loads it", "可以加载"),
        "bench.engine.ours_refuses" => ("refuses it", "拒绝加载"),
        "bench.engine.theirs" => ("Engine:", "引擎："),
        "bench.engine.lint" => ("Studio's lint:", "Studio 检查："),
        "bench.engine.disagree" => (
            "The engine and Studio's lint disagree on this pack: only one of them accepts it.",
            "引擎与 Studio 的检查对此扩展包意见不一：只有其中一方接受它。",
        ),
        "bench.engine.built" => ("Built", "已构建"),
        _ => return None,
    })
}
