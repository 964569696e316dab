//! Ending the web content a frozen panel page holds, per platform, and loading the window again.
//!
//! - **Linux** (WebKitGTK): a tier-2 frame's script runs on the app's own web process, so the
//!   whole web process is ended (`terminate_web_process`) and the view reloaded.
//! - **Windows** (WebView2): the page runs in Chromium renderer processes of Studio's WebView2
//!   environment; each is ended by its id (`ICoreWebView2Environment8::GetProcessInfos`), then
//!   the view reloads, as WebView2 documents for an exited renderer. A WebView2 runtime older
//!   than that interface (before 1.0.1108) gets the reload alone.
//! - **macOS** (WKWebView): Tauri gives no handle on the web content process, so the window is
//!   reloaded (the fallback the stuck-pages issue accepted); a page stuck in a loop may keep its
//!   process busy until WebKit's own watchdog ends it.

use tauri::WebviewWindow;

pub fn end_and_reload(window: &WebviewWindow) {
    #[cfg(target_os = "linux")]
    {
        let _ = window.with_webview(|pw| {
            use webkit2gtk::WebViewExt;
            let view = pw.inner();
            view.terminate_web_process();
            view.reload();
        });
    }
    #[cfg(windows)]
    {
        let _ = window.with_webview(|pw| {
            if let Err(e) = windows::end_renderers_and_reload(&pw.controller(), &pw.environment()) {
                tracing::warn!("the frozen page's renderer could not be ended: {e}");
            }
        });
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        let _ = window.reload();
    }
}

#[cfg(windows)]
mod windows {
    use webview2_com::Microsoft::Web::WebView2::Win32::{
        ICoreWebView2Controller, ICoreWebView2Environment, ICoreWebView2Environment8,
        COREWEBVIEW2_PROCESS_KIND, COREWEBVIEW2_PROCESS_KIND_RENDERER,
    };
    use windows_core::Interface;
    use windows_sys::Win32::Foundation::{CloseHandle, FALSE};
    use windows_sys::Win32::System::Threading::{OpenProcess, TerminateProcess, PROCESS_TERMINATE};

    /// Ends every renderer of the environment (Studio has one view), then reloads the view.
    pub fn end_renderers_and_reload(
        controller: &ICoreWebView2Controller,
        environment: &ICoreWebView2Environment,
    ) -> windows_core::Result<()> {
        // SAFETY: COM calls on the UI thread (with_webview runs there), on interfaces WebView2
        // handed us; the process handle is checked and closed here.
        unsafe {
            let view = controller.CoreWebView2()?;
            if let Ok(environment) = environment.cast::<ICoreWebView2Environment8>() {
                let infos = environment.GetProcessInfos()?;
                let mut count = 0u32;
                infos.Count(&mut count)?;
                for index in 0..count {
                    let info = infos.GetValueAtIndex(index)?;
                    let mut kind = COREWEBVIEW2_PROCESS_KIND::default();
                    info.Kind(&mut kind)?;
                    if kind != COREWEBVIEW2_PROCESS_KIND_RENDERER {
                        continue;
                    }
                    let mut pid = 0i32;
                    info.ProcessId(&mut pid)?;
                    let process = OpenProcess(PROCESS_TERMINATE, FALSE, pid as u32);
                    if !process.is_null() {
                        TerminateProcess(process, 1);
                        CloseHandle(process);
                    }
                }
            }
            view.Reload()
        }
    }
}
