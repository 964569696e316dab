//! Hosting's strings, English and Chinese (looked up through `i18n::tr`).

/// English and Chinese for a key this table owns; `None` leaves it to the other tables.
pub fn strings(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "host.open" => ("Host a table", "主持一张牌桌"),
        "host.title" => ("Host a table on this computer", "在本机主持牌桌"),
        "host.engine" => ("Engine:", "引擎："),
        "host.engine.version" => ("version", "版本"),
        "host.found.chosen" => ("(your choice)", "（你选择的）"),
        "host.found.path" => ("(found on PATH)", "（在 PATH 中找到）"),
        "host.change" => ("Choose another engine", "选择其他引擎"),
        "host.what" => (
            "Hosting runs the Loreweaver engine, the server that keeps the rooms, keys and story and plays the Keeper. Studio starts it, joins your table as its keeper and stops it when you are done.",
            "主持会运行 Loreweaver 引擎：保存房间、密钥与故事并扮演守秘人的服务器。Studio 启动它、以守秘人身份加入你的牌桌，并在结束时停止它。",
        ),
        "host.none" => (
            "No engine was found on this computer (none chosen before, no loreweaver-server or loreweaver on PATH).",
            "本机未找到引擎（之前未选择过，PATH 中也没有 loreweaver-server 或 loreweaver）。",
        ),
        "host.install" => (
            "Install one: either the engine's packaged server (put loreweaver-server on your PATH), or its source checkout with a virtual environment (python3 -m venv .venv && .venv/bin/pip install . in the engine's folder). Then give its executable or its folder here.",
            "安装方法：引擎的打包服务器（把 loreweaver-server 放入 PATH），或其源码目录加虚拟环境（在引擎目录中执行 python3 -m venv .venv && .venv/bin/pip install .）。然后在此填写其可执行文件或目录。",
        ),
        "host.path" => ("Engine executable or folder", "引擎可执行文件或目录"),
        "host.path.hint" => ("/path/to/loreweaver or /usr/local/bin/loreweaver-server", "/path/to/loreweaver 或 /usr/local/bin/loreweaver-server"),
        "host.use" => ("Use this engine", "使用此引擎"),
        "host.looking" => ("Looking for an engine…", "正在查找引擎…"),
        "host.probing" => ("Asking the engine its version…", "正在询问引擎版本…"),
        "host.name" => ("Table name", "牌桌名称"),
        "host.local" => (
            "For this machine only (no Internet; players on this computer)",
            "仅限本机（不连互联网；玩家在本机）",
        ),
        "host.start" => ("Host", "开始主持"),
        "host.starting" => ("Starting the engine…", "正在启动引擎…"),
        "host.stale" => ("Stop it and host", "停止它并主持"),
        "host.cancel" => ("Back", "返回"),
        "host.state.starting" => ("Starting", "启动中"),
        "host.state.serving" => ("Serving", "运行中"),
        "host.state.stopping" => ("Stopping", "停止中"),
        "host.state.crashed" => ("Crashed", "已崩溃"),
        "host.state.idle" => ("Not hosting", "未主持"),
        "host.uptime" => ("up", "已运行"),
        "host.demo" => (
            "Demo model: no AI provider is configured (Keeper → Model).",
            "演示模型：未配置 AI 提供方（守秘人 → 模型）。",
        ),
        "host.copy" => ("Copy ticket", "复制票据"),
        "host.copied" => ("Copied", "已复制"),
        "host.log" => ("Log", "日志"),
        "host.stop" => ("Stop hosting", "停止主持"),
        "host.restart" => ("Restart", "重新启动"),
        "host.crashed" => ("The engine ended unexpectedly:", "引擎意外结束："),
        "host.exit_code" => ("exit code", "退出码"),
        "host.signal" => ("signal", "信号"),
        "host.last_lines" => ("Its last lines:", "最后几行输出："),
        _ => return None,
    })
}
