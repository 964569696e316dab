//! The app's own strings (its name, the about line, the settings switches, notifications):
//! the ones no feature owns. Registered with the others in `main.rs`.

/// English and Chinese for a key this table owns; `None` leaves it to the other tables.
pub fn strings(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
            "app.tagline" => (
                "A table for stories, told together.",
                "共同讲述故事的桌面。",
            ),
            "about.studio" => ("Studio", "Studio"),
            "about.protocol" => ("protocol", "协议"),
            "about.offline" => ("backend not reachable", "无法连接后端"),
            "locale.switch" => ("中文", "English"),
            "theme.light" => ("Parchment theme", "羊皮纸主题"),
            "theme.dark" => ("Lamplit theme", "灯火主题"),
            "theme.contrast" => ("High contrast", "高对比度"),
            "prefs.logs" => ("Log folder", "日志文件夹"),
            "prefs.motion_on" => ("Motion", "动效"),
            "prefs.motion_off" => ("Still", "静止"),
            "prefs.still_hint" => ("Still: title cards, pins and pictures appear without moving (the system's reduced-motion setting does this too)", "静止：标题卡、图钉和图片出现时不再移动（系统的减少动态效果设置也会这样）"),
            "prefs.notify_on" => ("Notifications on: the Keeper's turn, letters and title cards while Studio is in the background (click to turn off)", "通知已开启：Studio 在后台时，守密人回合结束、信件与标题卡会通知你（点击关闭）"),
            "prefs.notify_off" => ("Notifications off (click to turn on)", "通知已关闭（点击开启）"),
            "notify.turn" => ("The Keeper has finished", "守密人已说完"),
            "notify.turn_body" => ("Your move.", "轮到你了。"),
            "notify.letter" => ("A letter arrived", "收到一封信"),
            "notify.more" => ("{n} more notifications while you were away", "你离开时还有 {n} 条通知"),
            _ => return None,
    })
}
